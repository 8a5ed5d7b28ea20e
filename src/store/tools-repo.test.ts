import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore, SCHEMA_VERSION, type Store, type ToolRow } from './index.js';
import { MIGRATIONS } from './migrations.js';

const dirs: string[] = [];
const stores: Store[] = [];
const tempPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-tools-'));
  dirs.push(dir);
  return join(dir, 'carte.db');
};
const open = (path = tempPath()) => {
  const store = openStore(path);
  stores.push(store);
  return store;
};
afterEach(() => {
  stores.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const tool = (key: string, contentHash = 'h1'): ToolRow => {
  const [serverId, name] = key.split('/') as [string, string];
  return {
    key,
    serverId,
    name,
    title: null,
    description: `does ${name}`,
    inputSchema: { type: 'object' },
    outputSchema: undefined,
    annotations: undefined,
    meta: undefined,
    execution: undefined,
    icons: undefined,
    schemaTruncatedFrom: null,
    contentHash,
    firstSeenAt: 'then',
    lastSeenAt: 'then',
  };
};

/** A store holding a/x, a/y and b/z, none categorised. */
function seeded(): Store {
  const store = open();
  store.servers.reconcileConfig('a', 'h');
  store.servers.reconcileConfig('b', 'h');
  const added = ['a/x', 'a/y', 'b/z'].map((k) => tool(k));
  store.tools.applyChanges({ added, changed: [], removed: [], unchanged: [] }, 'then');
  return store;
}

describe('ToolsRepo categories', () => {
  it('stores categories and tags, lists only categorised tools, and skips unknown keys', () => {
    const store = seeded();
    expect(store.tools.listCategories()).toEqual(new Map());
    expect(store.tools.serversMissingCategories()).toEqual(['a', 'b']);
    store.transaction(() =>
      store.tools.setCategories([
        { key: 'a/x', category: 'code', tags: ['read', 'github'] },
        { key: 'b/z', category: 'web', tags: [] },
        { key: 'gone/t', category: 'data', tags: ['sql'] },
      ]),
    );
    expect(store.tools.listCategories()).toEqual(
      new Map([
        ['a/x', { category: 'code', tags: ['read', 'github'] }],
        ['b/z', { category: 'web', tags: [] }],
      ]),
    );
    expect(store.tools.serversMissingCategories()).toEqual(['a']);
    expect([store.tools.hasMissingCategories('a'), store.tools.hasMissingCategories('b')]).toEqual([
      true,
      false,
    ]);
    expect(store.tools.hasMissingCategories('nobody')).toBe(false);
  });

  it('applyChanges keeps an unchanged tool’s category and clears a changed one’s', () => {
    const store = seeded();
    store.tools.setCategories(
      ['a/x', 'a/y', 'b/z'].map((key) => ({ key, category: 'files' as const, tags: ['read'] })),
    );
    store.tools.applyChanges(
      { added: [tool('a/new')], changed: [tool('a/y', 'h2')], removed: [], unchanged: ['a/x'] },
      'now',
    );
    expect([...store.tools.listCategories().keys()].sort()).toEqual(['a/x', 'b/z']);
    expect(store.tools.get('a/x')?.lastSeenAt).toBe('now');
    expect(store.tools.serversMissingCategories()).toEqual(['a']);
    store.tools.applyChanges({ added: [], changed: [], removed: ['a/y', 'a/new'], unchanged: [] }, 'now');
    expect(store.tools.serversMissingCategories()).toEqual([]);
  });

  it('migration 6 adds the columns to a store at version 5: its tools are uncategorised', () => {
    const path = tempPath();
    const db = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 5)) db.exec(sql);
    db.pragma('user_version = 5');
    db.prepare("INSERT INTO servers (id, config_hash) VALUES ('s', 'h')").run();
    db.prepare(
      `INSERT INTO tools (key, server_id, name, input_schema, content_hash, first_seen_at, last_seen_at)
       VALUES ('s/a', 's', 'a', '{"type":"object","properties":{"path":{}}}', 'x', 'now', 'now')`,
    ).run();
    db.close();
    const store = open(path);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(6);
    expect(store.tools.get('s/a')?.inputSchema).toEqual({ type: 'object', properties: { path: {} } });
    expect(store.tools.listCategories().size).toBe(0);
    expect(store.tools.serversMissingCategories()).toEqual(['s']);
    store.tools.setCategories([{ key: 's/a', category: 'files', tags: ['read'] }]);
    expect(store.tools.listCategories().get('s/a')).toEqual({ category: 'files', tags: ['read'] });
    expect(store.checkIntegrity()).toBe('ok');
  });
});
