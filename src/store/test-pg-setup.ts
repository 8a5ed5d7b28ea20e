// vitest globalSetup: one PostgreSQL database per test run for the store's tests on PostgreSQL
// (test-engines.ts makes one per test file under its name), dropped with them at the end. With
// no server the PostgreSQL half is skipped with one loud line; under CI it fails instead.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

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
  const name = `carte_test_${randomBytes(5).toString('hex')}`;
  try {
    await onServer(base, (c) => c.query(`CREATE DATABASE ${name}`));
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
  project.provide('carteTestDatabaseUrl', url.toString());
  return async () => {
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
