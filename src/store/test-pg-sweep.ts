// The test databases a killed run left on the PostgreSQL server, found and dropped by the next
// run's set-up (test-pg-setup.ts). Several runs may share the server, so a database is dropped
// only when all of these hold:
// - its name is this module's: `carte_test_t<creation time, base-36 seconds>_<8 hex>` for a run,
//   and that with `_<8 hex>` for each test file's database (names of an older set-up, without
//   the time, are never dropped: a run of that code may be going on);
// - it was made more than `staleAfterMs` ago, by its name;
// - its run is gone: a run holds a connection to its own database for as long as it lasts
//   (test-pg-setup.ts), and nobody is connected to the run's database;
// - nobody is connected to it, and DROP without FORCE refuses if somebody connects meanwhile.
import type pg from 'pg';

const NAME = /^(carte_test_t([0-9a-z]{1,10})_[0-9a-f]{8})(?:_[0-9a-f]{8})?$/;

/** A test database left this long by a run that is gone is dropped (no run lasts this long). */
export const STALE_AFTER_MS = 3 * 3_600_000;

/** A fresh run database name, with its creation time (unix epoch ms) in it. */
export function runDatabaseName(now: number, hex: string): string {
  return `carte_test_t${Math.floor(now / 1000).toString(36)}_${hex}`;
}

export interface SweepOptions {
  now: number;
  staleAfterMs: number;
}

/** Drops the stale test databases `client`'s server holds; returns their names, sorted. */
export async function sweepStaleTestDatabases(client: pg.Client, o: SweepOptions): Promise<string[]> {
  const { rows } = await client.query<{ datname: string; connections: number }>(
    `SELECT d.datname, (SELECT count(*)::int FROM pg_stat_activity a WHERE a.datname = d.datname) AS connections
     FROM pg_database d WHERE starts_with(d.datname, 'carte_test_t') ORDER BY d.datname`,
  );
  const connections = new Map(rows.map((r) => [r.datname, r.connections]));
  const dropped: string[] = [];
  for (const { datname } of rows) {
    const m = NAME.exec(datname);
    if (!m) continue;
    const [, run, time] = m as unknown as [string, string, string];
    const madeAt = parseInt(time, 36) * 1000;
    if (o.now - madeAt <= o.staleAfterMs) continue;
    if ((connections.get(run) ?? 0) > 0 || (connections.get(datname) ?? 0) > 0) continue;
    try {
      await client.query(`DROP DATABASE IF EXISTS "${datname}"`);
      dropped.push(datname);
    } catch {
      // Somebody connected since the count: it is in use after all.
    }
  }
  return dropped;
}
