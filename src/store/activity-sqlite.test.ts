// The activity table's SQLite-only behaviour: its migrations and a read-only open.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore, type Store } from './index.js';
import { MIGRATIONS } from './sqlite/migrations.js';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const call = (key: string, at: number) =>
  ({
    kind: 'call',
    key,
    server: key.split('/')[0]!,
    at,
    durationMs: 1,
    outcome: 'ok',
    resultBytes: 10,
  }) as const;

const dirs: string[] = [];
const stores: Store[] = [];
const tempPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-activity-'));
  dirs.push(dir);
  return join(dir, 'carte.db');
};
const open = async (path = tempPath()) => {
  const store = await openStore(path);
  stores.push(store);
  return store;
};
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('ActivityRepo on SQLite', () => {
  it("a run_code row is no company for its script's calls: they commit within their task, not a turn later", async () => {
    const store = await open();
    const run = await store.activity.beginGrouped({ kind: 'code', at: NOW });
    const order: string[] = [];
    const turn = new Promise<void>((resolve) => setImmediate(() => (order.push('turn'), resolve())));
    const inner = store.activity
      .beginGrouped({ kind: 'call', key: 'a/b', server: 'a', at: NOW, parentId: run })
      .then((id) => (order.push('call'), id));
    await Promise.all([turn, inner]);
    expect(order).toEqual(['call', 'turn']);
    await store.activity.finishGrouped(await inner, { outcome: 'ok', durationMs: 1 });
    await store.activity.finishGrouped(run, { outcome: 'ok', durationMs: 2 });
    // Another call in flight still makes a call wait for company, as before.
    const other = await store.activity.beginGrouped({ kind: 'call', key: 'a/b', server: 'a', at: NOW });
    const order2: string[] = [];
    const turn2 = new Promise<void>((resolve) => setImmediate(() => (order2.push('turn'), resolve())));
    const next = store.activity
      .beginGrouped({ kind: 'call', key: 'a/c', server: 'a', at: NOW })
      .then(() => order2.push('call'));
    await Promise.all([turn2, next]);
    expect(order2).toEqual(['turn', 'call']);
    await store.activity.finishGrouped(other, { outcome: 'ok', durationMs: 1 });
  });

  it('a store with nothing to prune is opened without a write', async () => {
    const path = tempPath();
    await (await open(path)).activity.record(call('a/x', Date.now()));
    // Another connection holds the write lock: an open that wrote would wait 5 s, then fail.
    const locker = new Database(path);
    locker.exec('BEGIN IMMEDIATE');
    try {
      expect(await (await open(path)).activity.count()).toBe(1);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
  });

  it('migration 5 adds the activity table to a store at version 4', async () => {
    const path = tempPath();
    const db = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 4)) db.exec(sql);
    db.pragma('user_version = 4');
    db.prepare("INSERT INTO servers (id, config_hash) VALUES ('s', 'h')").run();
    db.close();
    const store = await open(path);
    expect((await store.servers.get('s'))?.configHash).toBe('h');
    await store.activity.record(call('s/t', NOW));
    expect(await store.activity.count()).toBe(1);
    expect(await store.checkIntegrity()).toBe('ok');
  });

  it('migration 6 keeps the activity rows of a store at version 5; their token columns are NULL', async () => {
    const path = tempPath();
    const db = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 5)) db.exec(sql);
    db.pragma('user_version = 5');
    db.prepare(
      "INSERT INTO activity (at, kind, key, server, outcome, duration_ms) VALUES (?, 'call', 's/t', 's', 'ok', 3)",
    ).run(NOW);
    db.close();
    const store = await open(path);
    expect((await store.activity.usageByTool()).map((u) => [u.key, u.calls])).toEqual([['s/t', 1]]);
    expect(await store.activity.sessionStats()).toEqual({ sessions: 0, tokensSent: 0, tokensListing: 0 });
    await store.activity.recordSession({ at: NOW, durationMs: 1, tokensSent: 5, tokensListing: 50 });
    expect(await store.activity.sessionStats()).toEqual({ sessions: 1, tokensSent: 5, tokensListing: 50 });
    expect(await store.checkIntegrity()).toBe('ok');
  });
});
