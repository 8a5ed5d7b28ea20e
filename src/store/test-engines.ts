// The engines the store's tests run on, each with a fresh store per test: SQLite in a temp dir,
// and PostgreSQL when test-pg-setup.ts found a server (a database per test file, emptied before
// each store by DELETE and a restart of the identities: 17 ms, against 135 ms for TRUNCATE of
// the nine tables and a few hundred for a database per test).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';
import { openStore, type Store, type StoreEngine, type StoreOptions } from './index.js';
import { PG_TYPES } from './pg/db.js';

export interface TestEngine {
  name: StoreEngine;
  /** A new, empty store, closed after the test. */
  open(options?: StoreOptions): Promise<Store>;
  /** Another store on the same database as `store` (as another process would open it), closed after the test. */
  reopen(store: Store, options?: StoreOptions): Promise<Store>;
  /** Rows of one SQL statement on `store`'s database, on a connection of its own (none for a write). */
  sql(store: Store, text: string): Promise<Record<string, unknown>[]>;
}

const TABLES = ['servers', 'tools', 'tool_vectors', 'search_snapshots', 'activity', 'tokens', 'proposals'];
const EMPTY = [
  ...[...TABLES, 'tool_pins', 'quarantine', 'upstream_auth', 'leases', 'rate_windows', 'rate_blocks'].map(
    (t) => `DELETE FROM ${t};`,
  ),
  'ALTER TABLE activity ALTER COLUMN id RESTART;',
  'ALTER TABLE proposals ALTER COLUMN seq RESTART;',
  'ALTER TABLE search_snapshots ALTER COLUMN seq RESTART;',
].join(' ');

/** The PostgreSQL URL of this run ('' when those tests are skipped). */
export const PG_RUN_URL = inject('carteTestDatabaseUrl');

/** A new empty database on the test server, dropped at the end of the run; its URL. */
export async function createDatabase(): Promise<string> {
  const url = new URL(PG_RUN_URL);
  const name = `${url.pathname.slice(1)}_${randomBytes(4).toString('hex')}`;
  await onDatabase(PG_RUN_URL, (c) => c.query(`CREATE DATABASE ${name}`));
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` on a client of its own to `url`'s database (numbers parsed as the store parses them). */
export async function onDatabase<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, types: PG_TYPES });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The engines to test (SQLite always; PostgreSQL when a server answers), closing their stores after each test. */
export function testEngines(afterEach: (fn: () => Promise<void>) => void): TestEngine[] {
  const stores: Store[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
  });
  const track = (store: Store) => {
    const close = store.close.bind(store);
    let closed: Promise<void> | undefined;
    store.close = () => (closed ??= close()); // a test may close a store itself
    stores.push(store);
    return store;
  };
  const sqlite: TestEngine = {
    name: 'sqlite',
    open: async (options) => {
      const dir = mkdtempSync(join(tmpdir(), 'carte-store-'));
      dirs.push(dir);
      return track(await openStore(join(dir, 'carte.db'), options));
    },
    reopen: async (store, options) => track(await openStore(store.path, options)),
    sql: (store, text) => {
      const db = new Database(store.path);
      try {
        const statement = db.prepare(text);
        if (!statement.reader) return Promise.resolve(void statement.run()).then(() => []);
        return Promise.resolve(statement.all() as Record<string, unknown>[]);
      } finally {
        db.close();
      }
    },
  };
  let fileDatabase: Promise<string> | undefined;
  let used = false;
  // Each store's own URL: `store.path` has no password, which CARTE_TEST_DATABASE_URL may need.
  const urls = new WeakMap<Store, string>();
  const urlOf = (store: Store) => urls.get(store) ?? store.path;
  const postgres: TestEngine = {
    name: 'postgres',
    open: async (options) => {
      const url = await (fileDatabase ??= createDatabase());
      if (used) await onDatabase(url, (c) => c.query(EMPTY));
      used = true;
      const store = track(await openStore(url, options));
      urls.set(store, url);
      return store;
    },
    reopen: async (store, options) => {
      const again = track(await openStore(urlOf(store), options));
      urls.set(again, urlOf(store));
      return again;
    },
    sql: (store, text) =>
      onDatabase(urlOf(store), async (c) => (await c.query(text)).rows as Record<string, unknown>[]),
  };
  return PG_RUN_URL ? [sqlite, postgres] : [sqlite];
}
