import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore, SCHEMA_VERSION, type ToolRow } from './index.js';
import { MIGRATIONS } from './sqlite/migrations.js';
import { testEngines } from './test-engines.js';

const dirs: string[] = [];
const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-store-'));
  dirs.push(dir);
  return join(dir, 'nested', 'carte.db');
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const tool = (server: string, name: string, inputSchema: unknown = {}): ToolRow => ({
  key: `${server}/${name}`,
  serverId: server,
  name,
  title: null,
  description: null,
  inputSchema,
  outputSchema: undefined,
  annotations: undefined,
  meta: undefined,
  execution: undefined,
  icons: undefined,
  schemaTruncatedFrom: null,
  contentHash: 'x',
  firstSeenAt: 'now',
  lastSeenAt: 'now',
});

describe('store on SQLite', () => {
  it('creates the file in WAL mode at the current schema version', async () => {
    const path = tempDb();
    await (await openStore(path)).close();
    const db = new Database(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('refuses a store from a newer Carte, with the fix in the message', async () => {
    const path = tempDb();
    await (await openStore(path)).close();
    const db = new Database(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    await expect(openStore(path)).rejects.toThrow(
      `the store at "${path}" has schema version ${SCHEMA_VERSION + 5}, newer than this Carte's ${SCHEMA_VERSION}; upgrade Carte or point --data-dir elsewhere`,
    );
  });

  it('migration 4 fills param_names of tools stored before it', async () => {
    const path = tempDb();
    await (await openStore(path)).close(); // creates the directory
    rmSync(path);
    const db = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 3)) db.exec(sql);
    db.pragma('user_version = 3');
    db.prepare("INSERT INTO servers (id, config_hash) VALUES ('s', 'h')").run();
    const insert = db.prepare(
      `INSERT INTO tools (key, server_id, name, input_schema, content_hash, first_seen_at, last_seen_at)
       VALUES (?, 's', ?, ?, 'x', 'now', 'now')`,
    );
    insert.run('s/a', 'a', JSON.stringify({ type: 'object', properties: { path: {}, depth: {} } }));
    insert.run('s/b', 'b', null);
    insert.run('s/c', 'c', JSON.stringify({ type: 'object', properties: [1] }));
    db.close();
    const store = await openStore(path);
    expect((await store.tools.listForSearch()).map((r) => r.paramNames)).toEqual([['path', 'depth'], [], []]);
    await store.close();
  });
});

describe.each(testEngines(afterEach))('store on $name', (engine) => {
  it("a changed config hash drops only that server's tools", async () => {
    const store = await engine.open();
    await store.servers.reconcileConfig('a', 'h1');
    await store.servers.reconcileConfig('b', 'h1');
    await store.tools.applyChanges(
      { added: [tool('a', 't'), tool('b', 't')], changed: [], removed: [], unchanged: [] },
      'now',
    );
    expect(await store.servers.reconcileConfig('a', 'h1')).toBe(false);
    expect(await store.servers.reconcileConfig('a', 'h2')).toBe(true);
    expect(await store.tools.listKeys()).toEqual(['b/t']);
    expect((await store.servers.get('a'))?.status).toBe('never');
    expect(await store.servers.pruneExcept(['a'])).toEqual(['b']);
    expect(await store.tools.listKeys()).toEqual([]);
    expect(await store.checkIntegrity()).toBe('ok');
  });

  it('records a discovery and lists servers in id order', async () => {
    const store = await engine.open();
    for (const id of ['b', 'a-1', 'a/2', 'B']) await store.servers.reconcileConfig(id, 'h');
    await store.servers.setStatus('b', 'discovering');
    await store.servers.recordDiscovery('b', {
      status: 'success',
      at: 'then',
      toolCount: 3,
      warnings: ['w'],
      discoverResult: { x: 1 },
    });
    await store.servers.recordDiscovery('B', { status: 'failed', at: 'then', error: 'boom' });
    expect((await store.servers.list()).map((s) => s.id)).toEqual(['B', 'a-1', 'a/2', 'b']);
    expect(await store.servers.get('b')).toMatchObject({
      status: 'success',
      toolCount: 3,
      warnings: ['w'],
      discoverResult: { x: 1 },
      lastError: null,
    });
    expect(await store.servers.get('B')).toMatchObject({
      status: 'failed',
      lastError: 'boom',
      discoverResult: null,
    });
    expect(await store.servers.get('nope')).toBeUndefined();
  });

  it('listForSearch reads parameter names from the stored schema, whatever its shape', async () => {
    const store = await engine.open();
    await store.servers.reconcileConfig('s', 'h1');
    const schemas: Record<string, unknown> = {
      a: { type: 'object', properties: { path: {}, 'max depth': {}, "it's": {} } },
      b: { type: 'object' },
      c: undefined,
      d: { type: 'object', properties: ['x', 'y'] },
      e: { type: 'object', properties: 'path' },
    };
    const added = Object.entries(schemas).map(([name, schema]) => ({
      ...tool('s', name, schema),
      title: name === 'a' ? 'A tool' : null,
      description: `does ${name}`,
      outputSchema: { type: 'object' },
      contentHash: `hash-${name}`,
    }));
    await store.tools.applyChanges({ added, changed: [], removed: [], unchanged: [] }, 'now');
    const rows = await store.tools.listForSearch();
    expect(rows.map((r) => [r.key, r.paramNames])).toEqual([
      ['s/a', ['path', 'max depth', "it's"]],
      ['s/b', []],
      ['s/c', []],
      ['s/d', []],
      ['s/e', []],
    ]);
    expect(rows[0]).toEqual({
      key: 's/a',
      serverId: 's',
      name: 'a',
      title: 'A tool',
      description: 'does a',
      contentHash: 'hash-a',
      paramNames: ['path', 'max depth', "it's"],
    });
    expect(await store.tools.get('s/a')).toEqual(added[0]);
    expect((await store.tools.listAll()).map((t) => t.key)).toEqual(['s/a', 's/b', 's/c', 's/d', 's/e']);
    expect((await store.tools.listByServer('s')).map((t) => t.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect((await store.tools.listContentHashes()).sort()).toEqual([
      'hash-a',
      'hash-b',
      'hash-c',
      'hash-d',
      'hash-e',
    ]);
  });

  it('a transaction that throws leaves nothing written; one that returns keeps all', async () => {
    const store = await engine.open();
    await expect(
      store.transaction(async (tx) => {
        await tx.servers.reconcileConfig('a', 'h');
        await tx.tools.applyChanges(
          { added: [tool('a', 't')], changed: [], removed: [], unchanged: [] },
          'now',
        );
        await tx.activity.record({ kind: 'search', outcome: 'ok', durationMs: 1 });
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await store.servers.list()).toEqual([]);
    expect(await store.activity.count()).toBe(0);
    const value = await store.transaction(async (tx) => {
      await tx.servers.reconcileConfig('a', 'h');
      await tx.tools.applyChanges(
        { added: [tool('a', 't')], changed: [], removed: [], unchanged: [] },
        'now',
      );
      return tx.tools.listKeys();
    });
    expect(value).toEqual(['a/t']);
    expect(await store.tools.listKeys()).toEqual(['a/t']);
  });

  it('snapshots keep the newest two, by key', async () => {
    const store = await engine.open();
    await store.snapshots.put('k1', Uint8Array.of(1));
    await store.snapshots.put('k2', Uint8Array.of(2));
    await store.snapshots.put('k3', Uint8Array.of(3, 4));
    expect(await store.snapshots.keys()).toEqual(['k2', 'k3']);
    const got = await store.snapshots.get('k3');
    expect(Buffer.isBuffer(got)).toBe(true);
    expect([...got!]).toEqual([3, 4]);
    expect(await store.snapshots.get('k1')).toBeUndefined();
    expect(await store.snapshots.clear()).toBe(2);
    expect(await store.snapshots.keys()).toEqual([]);
  });
});
