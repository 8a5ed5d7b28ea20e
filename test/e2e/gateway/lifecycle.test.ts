import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_CALLER as ME, type GatewayServer } from '../../../src/gateway/index.js';
import { fixture, harness, tempDir, type Harness } from '../helpers.js';

// Slow: spawns the faults fixture (test/fixtures/faults.mjs) behind a real gateway.
let open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.map((h) => h.close()));
  open = [];
});
const FAST = { backoffBaseMs: 20, backoffCapMs: 100, circuitThreshold: 3, circuitOpenMs: 60_000 };

async function ready(servers: GatewayServer[], extra: Parameters<typeof harness>[2] = {}): Promise<Harness> {
  const h = await harness(servers, tempDir().dir, { lifecycle: FAST, ...extra });
  open.push(h);
  const reports = await h.gateway.sync(ME);
  expect(reports.every((r) => r.status === 'success')).toBe(true);
  return h;
}
const state = (h: Harness, id: string) => h.gateway.listServers(ME).find((s) => s.id === id)?.state;
const text = (r: Record<string, unknown>) => JSON.stringify(r.content);

describe('upstream lifecycle', () => {
  it('starts one process per server however many calls arrive at once', async () => {
    const log = join(tempDir().dir, 'spawns.log');
    const h = await ready([fixture('f', 'spawn-counter.mjs', { env: { SPAWN_LOG: log } })]);
    await h.gateway.upstreams.close('f');
    expect(state(h, 'f')).toBe('cached');
    writeFileSync(log, '');
    const calls = Array.from({ length: 30 }, (_, i) => h.gateway.callTool(ME, 'f/echo', { text: `n${i}` }));
    const results = await Promise.all(calls);
    expect(results.map(text)).toEqual(
      Array.from({ length: 30 }, (_, i) => JSON.stringify([{ type: 'text', text: `n${i}` }])),
    );
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(state(h, 'f')).toBe('ready');
  });

  it('restarts a server that crashed mid-call, on the next call', async () => {
    const h = await ready([fixture('f', 'faults.mjs')]);
    await expect(h.gateway.callTool(ME, 'f/crash', {})).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(state(h, 'f')).toBe('degraded');
    expect(text(await h.gateway.callTool(ME, 'f/echo', { text: 'back' }))).toContain('back');
    expect(state(h, 'f')).toBe('ready');
  });

  it('opens the circuit after repeated failures and then fails fast', async () => {
    const tmp = tempDir();
    const good = fixture('f', 'faults.mjs');
    const first = await harness([good], tmp.dir, { lifecycle: FAST });
    await first.gateway.sync(ME);
    await first.close();
    const broken = { ...fixture('f', 'exit-at-start.mjs'), configHash: good.configHash };
    const h = await harness([broken], tmp.dir, { lifecycle: FAST });
    open.push(h);
    for (let i = 0; i < FAST.circuitThreshold; i++) {
      // The stored discover result lets Carte adopt the modern era with no round trip, so the
      // dead server shows up on the first request rather than during the handshake.
      await expect(h.gateway.callTool(ME, 'f/echo', { text: 'x' })).rejects.toMatchObject({
        message: 'server "f" closed the connection during tools/call "echo"',
        operatorMessage:
          'server "f" closed the connection during tools/call "echo"; its stderr ends with: fixture: cannot start, missing FOO_TOKEN',
      });
    }
    expect(state(h, 'f')).toBe('failed');
    const refusal =
      'server "f" failed 3 times in a row (last: server "f" closed the connection during tools/call "echo"; its stderr ends with: fixture: cannot start, missing FOO_TOKEN); not retrying for 60 s';
    // Was a bug: each refusal became the "last" reason, so the message nested itself deeper.
    for (let i = 0; i < 2; i++) {
      await expect(h.gateway.callTool(ME, 'f/echo', { text: 'x' })).rejects.toMatchObject({
        message: 'server "f" failed 3 times in a row; not retrying for 60 s',
        operatorMessage: refusal,
      });
    }
  });

  it('queues calls over the concurrency limit and answers busy when the queue is full', async () => {
    const h = await ready([fixture('f', 'faults.mjs', { maxConcurrency: 1, maxQueue: 1 })]);
    const abort = new AbortController();
    const hung = h.gateway.callTool(ME, 'f/hang', {}, { signal: abort.signal });
    await new Promise((r) => setTimeout(r, 100));
    const queued = h.gateway.callTool(ME, 'f/echo', { text: 'queued' });
    await expect(h.gateway.callTool(ME, 'f/echo', { text: 'x' })).rejects.toThrow(
      'server "f" is busy: 1 call running and 1 waiting (maxConcurrency 1, maxQueue 1)',
    );
    abort.abort();
    await expect(hung).rejects.toMatchObject({ code: 'cancelled' });
    expect(text(await queued)).toContain('queued');
  });

  it('ends a hung call at its timeout, and progress keeps a slow call alive', async () => {
    const h = await ready([fixture('f', 'faults.mjs', { timeoutMs: 600 })]);
    await expect(h.gateway.callTool(ME, 'f/hang', {})).rejects.toThrow(
      'server "f" did not answer tools/call "hang" within 600 ms',
    );
    const slow = await h.gateway.callTool(ME, 'f/slow', { ms: 1500, steps: 6 });
    expect(text(slow)).toContain('6 steps done');
  });

  it('refuses a result over limits.maxResultBytes and recovers', async () => {
    const h = await ready([fixture('f', 'faults.mjs')], { limits: { maxResultBytes: 100_000 } });
    await expect(h.gateway.callTool(ME, 'f/big_result', { bytes: 300_000 })).rejects.toThrow(
      'server "f" sent a message over the 100000-byte limit during tools/call "big_result" (limits.maxResultBytes); the connection was reset',
    );
    expect(text(await h.gateway.callTool(ME, 'f/echo', { text: 'ok again' }))).toContain('ok again');
  });

  it('closes an idle connection and reopens it on the next call', async () => {
    const h = await ready([fixture('f', 'faults.mjs', { idleTimeoutMs: 150 })]);
    await h.gateway.callTool(ME, 'f/echo', { text: 'a' });
    await new Promise((r) => setTimeout(r, 500));
    expect(state(h, 'f')).toBe('cached');
    expect(text(await h.gateway.callTool(ME, 'f/echo', { text: 'b' }))).toContain('b');
  });

  it('follows a flood of list_changed without losing the last state', async () => {
    const h = await ready([fixture('f', 'faults.mjs')]);
    await h.gateway.callTool(ME, 'f/flood_list_changed', { count: 200 });
    await h.gateway.upstreams.settle();
    expect(h.gateway.listServers(ME)[0]).toMatchObject({ status: 'success', state: 'ready' });
  });
});
