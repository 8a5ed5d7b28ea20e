import { afterEach, describe, expect, it } from 'vitest';
import { testEngines } from './test-engines.js';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const server = { command: 'node', args: ['server.js'], env: { TOKEN: '${env:TOKEN}' } };

describe.each(testEngines(afterEach))('ProposalsRepo on $name', (engine) => {
  it('stores a pending proposal as written and reads it back by id', async () => {
    const { proposals } = await engine.open();
    const p = await proposals.insert({ serverId: 'files', config: server, source: 'cli:/x.yaml', at: NOW });
    expect(p.id).toMatch(/^prop_[a-z0-9]{10}$/);
    expect(await proposals.get(p.id)).toEqual({
      id: p.id,
      serverId: 'files',
      config: server,
      source: 'cli:/x.yaml',
      status: 'pending',
      problems: [],
      createdAt: '2026-11-24T12:00:00.000Z',
    });
    expect(await proposals.get('prop_nope')).toBeUndefined();
  });

  it('lists oldest first, filtered by status', async () => {
    const { proposals } = await engine.open();
    const a = await proposals.insert({ serverId: 'a', config: server, source: 's', at: NOW });
    const b = await proposals.insert({
      serverId: 'b',
      config: server,
      source: 's',
      at: NOW + 1,
      status: 'approved',
      decidedBy: 'registration.allow.commands "node"',
    });
    const c = await proposals.insert({ serverId: 'c', config: server, source: 's', at: NOW + 2 });
    const d = await proposals.insert({ serverId: 'd', config: server, source: 's', at: NOW }); // same time as a: after it
    expect((await proposals.list()).map((p) => p.id)).toEqual([a.id, d.id, b.id, c.id]);
    expect((await proposals.list({ status: 'pending' })).map((p) => p.id)).toEqual([a.id, d.id, c.id]);
    expect((await proposals.list({ status: 'approved' }))[0]).toMatchObject({
      decidedBy: 'registration.allow.commands "node"',
      decidedAt: new Date(NOW + 1).toISOString(),
    });
  });

  it('stores the network hosts an approval granted (none decided: absent)', async () => {
    const { proposals } = await engine.open();
    const p = await proposals.insert({ serverId: 'a', config: server, source: 's', at: NOW });
    const decided = await proposals.decide(p.id, 'approved', 'cli:ann', { grant: ['registry.npmjs.org'] });
    expect(decided.grant).toEqual(['registry.npmjs.org']);
    const none = await proposals.insert({
      serverId: 'b',
      config: server,
      source: 's',
      status: 'approved',
      decidedBy: 'registration.allow.commands "node"',
      grant: [],
    });
    expect((await proposals.get(none.id))?.grant).toEqual([]);
    expect((await proposals.insert({ serverId: 'c', config: server, source: 's' })).grant).toBeUndefined();
  });

  it('decides a pending proposal once; a second decision is refused naming the first', async () => {
    const { proposals } = await engine.open();
    const p = await proposals.insert({ serverId: 'a', config: server, source: 's', at: NOW });
    const decided = await proposals.decide(p.id, 'rejected', 'cli:ann', { at: NOW + 5 });
    expect(decided).toMatchObject({
      status: 'rejected',
      decidedBy: 'cli:ann',
      decidedAt: new Date(NOW + 5).toISOString(),
    });
    await expect(proposals.decide(p.id, 'approved', 'cli:bob')).rejects.toThrow(
      `proposal "${p.id}" was already rejected by cli:ann`,
    );
    await expect(proposals.decide('prop_missing', 'approved', 'cli:bob')).rejects.toThrow(
      'unknown proposal "prop_missing"',
    );
  });

  it('gives every proposal its own id', async () => {
    const { proposals } = await engine.open();
    const inserted = await Promise.all(
      Array.from({ length: 200 }, () => proposals.insert({ serverId: 'a', config: {}, source: 's' })),
    );
    expect(new Set(inserted.map((p) => p.id)).size).toBe(200);
  });
});
