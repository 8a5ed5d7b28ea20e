import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyStore, openStore, STORE_TABLES, type Store, type ToolRow } from './index.js';
import { createDatabase, PG_RUN_URL } from './test-engines.js';

// `carte store copy` (issue 26, item 6): a SQLite store into an empty PostgreSQL database.
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function open(location: string): Promise<Store> {
  const store = await openStore(location);
  cleanup.push(() => store.close());
  return store;
}

const tool = (key: string): ToolRow => {
  const [serverId, name] = key.split('/') as [string, string];
  return {
    key,
    serverId,
    name,
    title: null,
    description: `does ${name}`,
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    outputSchema: undefined,
    annotations: { readOnlyHint: true },
    meta: undefined,
    execution: undefined,
    icons: undefined,
    schemaTruncatedFrom: null,
    contentHash: `h-${name}`,
    firstSeenAt: 'then',
    lastSeenAt: 'then',
  };
};

/** A SQLite store with a row in most tables. */
async function filled(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'carte-copy-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'carte.db');
  const s = await openStore(path);
  await s.servers.reconcileConfig('a', 'cfg');
  await s.tools.applyChanges(
    { added: [tool('a/x'), tool('a/y')], changed: [], removed: [], unchanged: [] },
    't',
  );
  await s.tools.setCategories([{ key: 'a/x', category: 'files', tags: ['read'] }]);
  await s.vectors.putMany([{ hash: 'h-x', vector: Float32Array.of(0.5, -1.25) }], 'model', 2);
  await s.snapshots.put('k', Uint8Array.of(1, 2, 3));
  const id = await s.activity.begin({ at: 1000, kind: 'call', key: 'a/x', server: 'a', project: 'default' });
  await s.activity.finish(id, { outcome: 'ok', durationMs: 12.5, resultBytes: 40 });
  await s.activity.record({ at: 2000, kind: 'search', outcome: 'ok', durationMs: 1, detail: 'q' });
  await s.tokens.insert({
    id: 'tok_1',
    name: 'ci',
    project: 'default',
    scopes: ['call'],
    hash: 'ab'.repeat(32),
    createdAt: 5,
    expiresAt: null,
  });
  await s.proposals.insert({ serverId: 'b', config: { command: 'npx' }, source: 'cli' });
  await s.trust.upsertPin({ key: 'a/y', serverId: 'a', pinHash: 'p', pinnedAt: 7, content: '{}' });
  await s.trust.putQuarantine({
    key: 'a/x',
    serverId: 'a',
    kind: 'flagged',
    reason: 'r',
    findings: [],
    since: 8,
  });
  await s.close();
  return path;
}

describe.skipIf(PG_RUN_URL === '')('copyStore', () => {
  it('copies every table, with the rows reading back the same through the repositories', async () => {
    const from = await filled();
    const to = await createDatabase();
    const heard: string[] = [];
    const copied = await copyStore(from, to, (t) => heard.push(t.table));
    expect(heard).toEqual([...STORE_TABLES]);
    expect(Object.fromEntries(copied.map((t) => [t.table, t.rows]))).toEqual({
      servers: 1,
      tools: 2,
      tool_vectors: 1,
      search_snapshots: 1,
      activity: 2,
      tokens: 1,
      proposals: 1,
      tool_pins: 1,
      quarantine: 1,
      upstream_auth: 0,
    });
    const [a, b] = [await open(from), await open(to)];
    expect(await b.tools.listAll()).toEqual(await a.tools.listAll());
    expect(await b.tools.listCategories()).toEqual(await a.tools.listCategories());
    expect(await b.servers.list()).toEqual(await a.servers.list());
    expect(await b.activity.audit({})).toEqual(await a.activity.audit({}));
    expect(await b.tokens.list()).toEqual(await a.tokens.list());
    expect(await b.proposals.list()).toEqual(await a.proposals.list());
    expect(await b.trust.listQuarantine()).toEqual(await a.trust.listQuarantine());
    expect(await b.trust.pinsByServer('a')).toEqual(await a.trust.pinsByServer('a'));
    expect(await b.vectors.getMany(['h-x'], 'model', 2)).toEqual(
      await a.vectors.getMany(['h-x'], 'model', 2),
    );
    expect(Buffer.from((await b.snapshots.get('k'))!)).toEqual(Buffer.from([1, 2, 3]));
    // New rows continue after the copied ids.
    const next = await b.activity.begin({
      at: 3000,
      kind: 'call',
      key: 'a/y',
      server: 'a',
      project: 'default',
    });
    expect(next).toBeGreaterThan(2);
  });

  it('refuses a target that holds rows, naming the tables, and writes nothing', async () => {
    const from = await filled();
    const to = await createDatabase();
    const target = await open(to);
    await target.servers.reconcileConfig('other', 'cfg');
    await expect(copyStore(from, to)).rejects.toThrow(
      `the store at "${to.replace(/\/$/, '')}" is not empty (servers hold rows); copy into an empty database`,
    );
    expect((await target.tools.listAll()).length).toBe(0);
  });

  it('names a missing source', async () => {
    await expect(copyStore('/nonexistent/carte.db', await createDatabase())).rejects.toThrow(
      'no store at "/nonexistent/carte.db" to copy',
    );
  });
});
