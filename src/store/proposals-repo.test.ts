import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from './index.js';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const dirs: string[] = [];
const stores: Store[] = [];
const open = (): Store => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-proposals-'));
  dirs.push(dir);
  const store = openStore(join(dir, 'carte.db'));
  stores.push(store);
  return store;
};
afterEach(() => {
  stores.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const server = { command: 'node', args: ['server.js'], env: { TOKEN: '${env:TOKEN}' } };

describe('ProposalsRepo', () => {
  it('stores a pending proposal as written and reads it back by id', () => {
    const { proposals } = open();
    const p = proposals.insert({ serverId: 'files', config: server, source: 'cli:/x.yaml', at: NOW });
    expect(p.id).toMatch(/^prop_[a-z0-9]{10}$/);
    expect(proposals.get(p.id)).toEqual({
      id: p.id,
      serverId: 'files',
      config: server,
      source: 'cli:/x.yaml',
      status: 'pending',
      problems: [],
      createdAt: '2026-11-24T12:00:00.000Z',
    });
    expect(proposals.get('prop_nope')).toBeUndefined();
  });

  it('lists oldest first, filtered by status', () => {
    const { proposals } = open();
    const a = proposals.insert({ serverId: 'a', config: server, source: 's', at: NOW });
    const b = proposals.insert({
      serverId: 'b',
      config: server,
      source: 's',
      at: NOW + 1,
      status: 'approved',
      decidedBy: 'registration.allow.commands "node"',
    });
    const c = proposals.insert({ serverId: 'c', config: server, source: 's', at: NOW + 2 });
    expect(proposals.list().map((p) => p.id)).toEqual([a.id, b.id, c.id]);
    expect(proposals.list({ status: 'pending' }).map((p) => p.id)).toEqual([a.id, c.id]);
    expect(proposals.list({ status: 'approved' })[0]).toMatchObject({
      decidedBy: 'registration.allow.commands "node"',
      decidedAt: new Date(NOW + 1).toISOString(),
    });
  });

  it('decides a pending proposal once; a second decision is refused naming the first', () => {
    const { proposals } = open();
    const p = proposals.insert({ serverId: 'a', config: server, source: 's', at: NOW });
    const decided = proposals.decide(p.id, 'rejected', 'cli:ann', NOW + 5);
    expect(decided).toMatchObject({
      status: 'rejected',
      decidedBy: 'cli:ann',
      decidedAt: new Date(NOW + 5).toISOString(),
    });
    expect(() => proposals.decide(p.id, 'approved', 'cli:bob')).toThrow(
      `proposal "${p.id}" was already rejected by cli:ann`,
    );
    expect(() => proposals.decide('prop_missing', 'approved', 'cli:bob')).toThrow(
      'unknown proposal "prop_missing"',
    );
  });

  it('gives every proposal its own id', () => {
    const { proposals } = open();
    const ids = new Set(
      Array.from({ length: 200 }, () => proposals.insert({ serverId: 'a', config: {}, source: 's' }).id),
    );
    expect(ids.size).toBe(200);
  });
});
