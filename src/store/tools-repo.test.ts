import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore, SCHEMA_VERSION, type Store, type ToolRow } from './index.js';
import { MIGRATIONS } from './sqlite/migrations.js';
import { testEngines, type TestEngine } from './test-engines.js';

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
async function seeded(engine: TestEngine): Promise<Store> {
  const store = await engine.open();
  await store.servers.reconcileConfig('a', 'h');
  await store.servers.reconcileConfig('b', 'h');
  const added = ['a/x', 'a/y', 'b/z'].map((k) => tool(k));
  await store.tools.applyChanges({ added, changed: [], removed: [], unchanged: [] }, 'then');
  return store;
}

describe.each(testEngines(afterEach))('ToolsRepo categories on $name', (engine) => {
  it('stores categories and tags, lists only categorised tools, and skips unknown keys', async () => {
    const store = await seeded(engine);
    expect(await store.tools.listCategories()).toEqual(new Map());
    expect(await store.tools.serversMissingCategories()).toEqual(['a', 'b']);
    await store.transaction((tx) =>
      tx.tools.setCategories([
        { key: 'a/x', category: 'code', tags: ['read', 'github'] },
        { key: 'b/z', category: 'web', tags: [] },
        { key: 'gone/t', category: 'data', tags: ['sql'] },
      ]),
    );
    expect(await store.tools.listCategories()).toEqual(
      new Map([
        ['a/x', { category: 'code', tags: ['read', 'github'] }],
        ['b/z', { category: 'web', tags: [] }],
      ]),
    );
    expect(await store.tools.serversMissingCategories()).toEqual(['a']);
    expect([
      await store.tools.hasMissingCategories('a'),
      await store.tools.hasMissingCategories('b'),
    ]).toEqual([true, false]);
    expect(await store.tools.hasMissingCategories('nobody')).toBe(false);
  });

  it('applyChanges keeps an unchanged tool’s category and clears a changed one’s', async () => {
    const store = await seeded(engine);
    await store.tools.setCategories(
      ['a/x', 'a/y', 'b/z'].map((key) => ({ key, category: 'files' as const, tags: ['read'] })),
    );
    await store.tools.applyChanges(
      { added: [tool('a/new')], changed: [tool('a/y', 'h2')], removed: [], unchanged: ['a/x'] },
      'now',
    );
    expect([...(await store.tools.listCategories()).keys()].sort()).toEqual(['a/x', 'b/z']);
    expect((await store.tools.get('a/x'))?.lastSeenAt).toBe('now');
    expect((await store.tools.get('a/y'))?.contentHash).toBe('h2');
    expect((await store.tools.get('a/y'))?.firstSeenAt).toBe('then');
    expect(await store.tools.serversMissingCategories()).toEqual(['a']);
    await store.tools.applyChanges(
      { added: [], changed: [], removed: ['a/y', 'a/new'], unchanged: [] },
      'now',
    );
    expect(await store.tools.serversMissingCategories()).toEqual([]);
  });
});

describe('ToolsRepo migrations on SQLite', () => {
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it('migration 6 adds the columns to a store at version 5: its tools are uncategorised', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'carte-tools-'));
    dirs.push(dir);
    const path = join(dir, 'carte.db');
    const db = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 5)) db.exec(sql);
    db.pragma('user_version = 5');
    db.prepare("INSERT INTO servers (id, config_hash) VALUES ('s', 'h')").run();
    db.prepare(
      `INSERT INTO tools (key, server_id, name, input_schema, content_hash, first_seen_at, last_seen_at)
       VALUES ('s/a', 's', 'a', '{"type":"object","properties":{"path":{}}}', 'x', 'now', 'now')`,
    ).run();
    db.close();
    const store = await openStore(path);
    stores.push(store);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(6);
    expect((await store.tools.get('s/a'))?.inputSchema).toEqual({ type: 'object', properties: { path: {} } });
    expect((await store.tools.listCategories()).size).toBe(0);
    expect(await store.tools.serversMissingCategories()).toEqual(['s']);
    await store.tools.setCategories([{ key: 's/a', category: 'files', tags: ['read'] }]);
    expect((await store.tools.listCategories()).get('s/a')).toEqual({ category: 'files', tags: ['read'] });
    expect(await store.checkIntegrity()).toBe('ok');
  });
});
