import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore, SCHEMA_VERSION } from './index.js';
import { MIGRATIONS } from './migrations.js';

const dirs: string[] = [];
const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-store-'));
  dirs.push(dir);
  return join(dir, 'nested', 'carte.db');
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('store', () => {
  it('creates the file in WAL mode at the current schema version', () => {
    const path = tempDb();
    openStore(path).close();
    const db = new Database(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('refuses a store from a newer Carte, with the fix in the message', () => {
    const path = tempDb();
    openStore(path).close();
    const db = new Database(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    expect(() => openStore(path)).toThrow(
      `the store at "${path}" has schema version ${SCHEMA_VERSION + 5}, newer than this Carte's ${SCHEMA_VERSION}; upgrade Carte or point --data-dir elsewhere`,
    );
  });

  it("a changed config hash drops only that server's tools", () => {
    const store = openStore(tempDb());
    store.servers.reconcileConfig('a', 'h1');
    store.servers.reconcileConfig('b', 'h1');
    const tool = (server: string) => ({
      key: `${server}/t`,
      serverId: server,
      name: 't',
      title: null,
      description: null,
      inputSchema: {},
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
    store.tools.applyChanges(
      { added: [tool('a'), tool('b')], changed: [], removed: [], unchanged: [] },
      'now',
    );
    expect(store.servers.reconcileConfig('a', 'h1')).toBe(false);
    expect(store.servers.reconcileConfig('a', 'h2')).toBe(true);
    expect(store.tools.listKeys()).toEqual(['b/t']);
    expect(store.servers.get('a')?.status).toBe('never');
    expect(store.servers.pruneExcept(['a'])).toEqual(['b']);
    expect(store.tools.listKeys()).toEqual([]);
    expect(store.checkIntegrity()).toBe('ok');
    store.close();
  });

  it('listForSearch reads parameter names from the stored schema, whatever its shape', () => {
    const store = openStore(tempDb());
    store.servers.reconcileConfig('s', 'h1');
    const tool = (name: string, inputSchema: unknown) => ({
      key: `s/${name}`,
      serverId: 's',
      name,
      title: name === 'a' ? 'A tool' : null,
      description: `does ${name}`,
      inputSchema,
      outputSchema: { type: 'object' },
      annotations: undefined,
      meta: undefined,
      execution: undefined,
      icons: undefined,
      schemaTruncatedFrom: null,
      contentHash: `hash-${name}`,
      firstSeenAt: 'now',
      lastSeenAt: 'now',
    });
    const schemas: Record<string, unknown> = {
      a: { type: 'object', properties: { path: {}, 'max depth': {}, "it's": {} } },
      b: { type: 'object' },
      c: undefined,
      d: { type: 'object', properties: ['x', 'y'] },
      e: { type: 'object', properties: 'path' },
    };
    const added = Object.entries(schemas).map(([name, schema]) => tool(name, schema));
    store.tools.applyChanges({ added, changed: [], removed: [], unchanged: [] }, 'now');
    const rows = store.tools.listForSearch();
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
    store.close();
  });

  it('migration 4 fills param_names of tools stored before it', () => {
    const path = tempDb();
    openStore(path).close(); // creates the directory
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
    const store = openStore(path);
    expect(store.tools.listForSearch().map((r) => r.paramNames)).toEqual([['path', 'depth'], [], []]);
    store.close();
  });
});
