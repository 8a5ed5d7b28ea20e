// The per-user connections (issue 41, "Teams") over real stdio connections to the faults fixture:
// one per (server, subject), the least recently used closed beyond the cap, an idle one closed,
// and a caller without a subject refused before anything starts.
import { afterEach, describe, expect, it } from 'vitest';
import type { UpstreamConnection } from '../../upstream/index.js';
import { fixture, memoryLogger } from '../../../test/e2e/helpers.js';
import { PerUserConnections, type OpenPerUser } from './per-user.js';

const server = fixture('faults', 'faults.mjs');
const opened: string[] = [];
const open: OpenPerUser = async (s, subject, pool) => {
  const known = await pool.peek(s.id);
  if (known) return known;
  opened.push(subject);
  return pool.connect(s.id, s.target, { timeoutMs: 10_000, logger: memoryLogger() });
};
let conns: PerUserConnections | undefined;

afterEach(async () => {
  await conns?.close();
  opened.length = 0;
});

describe('PerUserConnections', () => {
  it('keeps one connection per subject and closes the least recently used beyond the cap', async () => {
    conns = new PerUserConnections(open, memoryLogger(), { idleMs: 60_000, max: 2 });
    const a = await conns.connection(server, 'alice');
    const b = await conns.connection(server, 'bob');
    expect(await conns.connection(server, 'alice')).toBe(a); // alice is now the most recent
    const c = await conns.connection(server, 'carol');
    expect(conns.size).toBe(2);
    await expect.poll(() => b.isClosed).toBe(true);
    expect(a.isClosed).toBe(false);
    expect(c.isClosed).toBe(false);
    expect(opened).toEqual(['alice', 'bob', 'carol']);
    expect(conns.openConnections().map((o) => o.subject)).toEqual(['alice', 'carol']);
  }, 30_000);

  it('closes a connection left idle, and opens a new one on the next use', async () => {
    conns = new PerUserConnections(open, memoryLogger(), { idleMs: 20, max: 64 });
    let first: UpstreamConnection | undefined;
    const echoed = await conns.call(server, 'alice', (conn) => {
      first = conn;
      return conn.callTool('echo', { text: 'hi' }, { timeoutMs: 10_000 });
    });
    expect(JSON.stringify(echoed)).toContain('hi');
    await expect.poll(() => first!.isClosed).toBe(true);
    expect(conns.size).toBe(0);
    await conns.connection(server, 'alice');
    expect(opened).toEqual(['alice', 'alice']);
  }, 30_000);

  it('refuses a caller without a subject before starting anything', async () => {
    conns = new PerUserConnections(open, memoryLogger());
    await expect(conns.call(server, undefined, () => Promise.resolve(1))).rejects.toMatchObject({
      code: 'needs_sign_in',
      message:
        'server "faults" has per-user sign-in: each caller uses their own account, so it needs a caller signed in to Carte through the identity provider (auth.oidc), not a Carte token or the local user',
    });
    expect(opened).toEqual([]);
  });
});
