import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { GroupCommit } from './group-commit.js';
import { openStore } from '../index.js';

const dirs: string[] = [];
const dbs: Database.Database[] = [];
const tempPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-group-'));
  dirs.push(dir);
  return join(dir, 'g.db');
};
afterEach(() => {
  dbs.splice(0).forEach((d) => d.open && d.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

/** A WAL database with one table, and a second connection that sees only committed rows. */
function setUp() {
  const path = tempPath();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  const reader = new Database(path, { readonly: true });
  dbs.push(db, reader);
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  const count = () => (reader.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
  return { db, insert, count };
}

describe('GroupCommit', () => {
  it('runs the writes asked for in one turn in one transaction, and settles them after it commits', async () => {
    const { db, insert, count } = setUp();
    const group = new GroupCommit(db);
    const inTx: boolean[] = [];
    const seenByReader: number[] = [];
    const writes = Array.from({ length: 16 }, (_, i) =>
      group.add(() => {
        inTx.push(db.inTransaction);
        return Number(insert.run(`v${i}`).lastInsertRowid);
      }),
    );
    expect(count()).toBe(0); // nothing runs in the turn that asks
    void writes[0]!.then(() => seenByReader.push(count()));
    const ids = await Promise.all(writes);
    expect(ids).toEqual(Array.from({ length: 16 }, (_, i) => i + 1)); // each caller gets its own value
    expect(inTx).toEqual(Array(16).fill(true));
    expect(seenByReader).toEqual([16]); // the first to settle already finds all sixteen committed
  });

  it('a write expected alone commits when the current task ends, without waiting for a turn', async () => {
    const { db, insert, count } = setUp();
    const group = new GroupCommit(db);
    let turned = false;
    setImmediate(() => (turned = true));
    const inTx: boolean[] = [];
    const both = [
      group.add(() => inTx.push(db.inTransaction) && insert.run('a').changes, 'task'),
      group.add(() => inTx.push(db.inTransaction) && insert.run('b').changes, 'task'),
    ];
    await Promise.all(both);
    expect(turned).toBe(false);
    expect(count()).toBe(2);
    expect(inTx).toEqual([true, true]); // asked for in the same task: one transaction
  });

  it("the activity table groups a call's writes by the turn only while other calls are in flight", async () => {
    const path = tempPath();
    const store = await openStore(path);
    try {
      const turns = () => new Promise<void>((r) => setImmediate(r));
      let turned = false;
      void turns().then(() => (turned = true));
      const lone = await store.activity.beginGrouped({ kind: 'call', key: 'a/x', server: 'a' });
      expect(turned).toBe(false); // alone: no turn waited
      const second = store.activity.beginGrouped({ kind: 'call', key: 'a/y', server: 'a' });
      let settled = false;
      void second.then(() => (settled = true));
      await Promise.resolve();
      await Promise.resolve();
      expect(settled).toBe(false); // another call in flight: it waits for the turn's end
      const id2 = await second;
      await store.activity.finishGrouped(lone, { outcome: 'ok', durationMs: 1 });
      await store.activity.finishGrouped(id2, { outcome: 'ok', durationMs: 1 });
      expect((await store.activity.audit()).map((r) => r.outcome)).toEqual(['ok', 'ok']);
    } finally {
      await store.close();
    }
  });

  it('a write that throws fails only its caller: the others run again alone, once each', async () => {
    const { db, insert, count } = setUp();
    const group = new GroupCommit(db);
    const bad = new Error('bad row');
    const results = await Promise.allSettled([
      group.add(() => insert.run('a').changes),
      group.add(() => {
        insert.run('b');
        throw bad;
      }),
      group.add(() => insert.run('c').changes),
    ]);
    expect(results).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: bad },
      { status: 'fulfilled', value: 1 },
    ]);
    // The group rolled back; alone, "b" was inserted by autocommit before its write threw.
    expect(db.prepare('SELECT v FROM t ORDER BY id').pluck().all()).toEqual(['a', 'b', 'c']);
    expect(count()).toBe(3);
  });

  it('a lone write is not wrapped in a transaction, and its error reaches its caller', async () => {
    const { db, insert } = setUp();
    const group = new GroupCommit(db);
    await expect(group.add(() => db.inTransaction)).resolves.toBe(false);
    await expect(group.add(() => insert.run(null))).rejects.toThrow(/NOT NULL/);
  });

  it('flush commits what is queued at once, and a later turn finds nothing left to run', async () => {
    const { db, insert, count } = setUp();
    const group = new GroupCommit(db);
    const pending = group.add(() => insert.run('x').changes);
    group.flush();
    expect(count()).toBe(1);
    await expect(pending).resolves.toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(count()).toBe(1);
  });

  it("the store's close commits audit rows still queued", async () => {
    const path = tempPath();
    const store = await openStore(path);
    const id = store.activity.beginGrouped({ kind: 'call', key: 'a/x', server: 'a' });
    await store.close();
    await expect(id).resolves.toBe(1);
    const again = await openStore(path);
    try {
      // Committed; the store that began it closed with it in flight, so this start reads it interrupted.
      expect(await again.activity.audit()).toMatchObject([{ id: 1, key: 'a/x', outcome: 'interrupted' }]);
    } finally {
      await again.close();
    }
  });
});
