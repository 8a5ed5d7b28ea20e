// The sweep of test databases left by killed runs, on the real test server: only stale ones of
// runs that are gone go, never one a run (or anybody) is connected to, never another naming's.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { onDatabase, PG_RUN_URL } from './test-engines.js';
import { runDatabaseName, STALE_AFTER_MS, sweepStaleTestDatabases } from './test-pg-sweep.js';

const HOUR = 3_600_000;
const made: string[] = [];
const held: pg.Client[] = [];

afterAll(async () => {
  for (const c of held) await c.end();
  if (PG_RUN_URL)
    await onDatabase(PG_RUN_URL, async (c) => {
      for (const name of made) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });
});

const hex = () => randomBytes(4).toString('hex');

/** Makes a database and returns its name. */
async function database(name: string): Promise<string> {
  made.push(name);
  await onDatabase(PG_RUN_URL, (c) => c.query(`CREATE DATABASE "${name}"`));
  return name;
}

/** Connects to a database until the end of the file (a run, or anybody, using it). */
async function connectTo(name: string): Promise<void> {
  const url = new URL(PG_RUN_URL);
  url.pathname = `/${name}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  held.push(c);
}

describe.skipIf(!PG_RUN_URL)('sweepStaleTestDatabases', () => {
  it('drops the stale databases of gone runs only', async () => {
    const now = Date.now();
    const old = now - STALE_AFTER_MS - HOUR;
    const goneRun = await database(runDatabaseName(old, hex()));
    const goneFile = await database(`${goneRun}_${hex()}`);
    const orphanFile = await database(`${runDatabaseName(old, hex())}_${hex()}`); // its run already dropped
    const liveRun = await database(runDatabaseName(old, hex()));
    const liveFile = await database(`${liveRun}_${hex()}`);
    await connectTo(liveRun); // a run going on for longer than STALE_AFTER_MS: still its
    const usedRun = await database(runDatabaseName(old, hex()));
    const usedFile = await database(`${usedRun}_${hex()}`);
    await connectTo(usedFile); // somebody on the file's database, though its run is gone
    const young = await database(runDatabaseName(now - HOUR, hex()));
    const legacy = await database(`carte_test_${randomBytes(5).toString('hex')}`); // an older set-up's
    const other = await database(`carte_other_t${Math.floor(old / 1000).toString(36)}_${hex()}`);

    const dropped = await onDatabase(PG_RUN_URL, (c) =>
      sweepStaleTestDatabases(c, { now, staleAfterMs: STALE_AFTER_MS }),
    );
    // A run starting meanwhile may sweep some first: what is left is the test.
    const gone = [goneRun, goneFile, orphanFile, usedRun];
    expect(dropped.filter((d) => made.includes(d)).every((d) => gone.includes(d))).toBe(true);
    const left = await onDatabase(PG_RUN_URL, async (c) => {
      const r = await c.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE datname = ANY($1)',
        [made],
      );
      return r.rows.map((x) => x.datname).sort();
    });
    expect(left).toEqual([liveRun, liveFile, usedFile, young, legacy, other].sort());
  });
});
