// vitest globalSetup: one PostgreSQL database per test run for the store's tests on PostgreSQL
// (test-engines.ts makes one per test file under its name), dropped with them at the end. With
// no server the PostgreSQL half is skipped with one loud line; under CI it fails instead. A run
// killed before its end leaves its databases behind: the next run drops them once they are stale
// and nobody uses them (test-pg-sweep.ts), so runs sharing the server never drop each other's.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { runDatabaseName, STALE_AFTER_MS, sweepStaleTestDatabases } from './test-pg-sweep.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's database for the PostgreSQL store tests; '' when they are skipped. */
    carteTestDatabaseUrl: string;
  }
}

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const base = process.env.CARTE_TEST_DATABASE_URL ?? DEFAULT_URL;
  const printable = withoutPassword(base);
  const name = runDatabaseName(Date.now(), randomBytes(4).toString('hex'));
  try {
    await onServer(base, async (c) => {
      const dropped = await sweepStaleTestDatabases(c, { now: Date.now(), staleAfterMs: STALE_AFTER_MS });
      if (dropped.length > 0)
        console.warn(`dropped ${dropped.length} test database(s) of killed runs: ${dropped.join(', ')}`);
      await c.query(`CREATE DATABASE ${name}`);
    });
  } catch (err) {
    const why = `no PostgreSQL answers at ${printable} (${(err as Error).message})`;
    if (process.env.CI)
      throw new Error(`${why}; CI runs the PostgreSQL store tests: start PostgreSQL first`, { cause: err });
    console.warn(
      `\n!!! SKIPPING the PostgreSQL store tests: ${why}. Start PostgreSQL or set CARTE_TEST_DATABASE_URL to run them.\n`,
    );
    project.provide('carteTestDatabaseUrl', '');
    return undefined;
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  // Held until the end: while it is open, no other run's sweep takes this run's databases as left over.
  const holder = new pg.Client({ connectionString: url.toString(), application_name: 'carte test run' });
  holder.on('error', () => undefined); // a lost hold only lets a sweep in after STALE_AFTER_MS
  await holder.connect();
  project.provide('carteTestDatabaseUrl', url.toString());
  return async () => {
    await holder.end().catch(() => undefined);
    await onServer(base, async (c) => {
      // The run's database and the ones made for each test file (test-engines.ts) share its name.
      const found = await c.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
        [name],
      );
      for (const { datname } of found.rows)
        await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    });
  };
}

async function onServer(url: string, fn: (c: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}

function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return '(an unparsable CARTE_TEST_DATABASE_URL)';
  }
}
