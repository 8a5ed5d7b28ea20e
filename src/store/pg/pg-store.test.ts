// What only the PostgreSQL store does: its migration lock, its version check, its URL handling.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CarteError } from '../../errors.js';
import { openStore, SCHEMA_VERSION, type Store } from '../index.js';
import { createDatabase, onDatabase, PG_RUN_URL } from '../test-engines.js';
import { PG_SCHEMA_VERSION } from './migrations.js';
import { parseStoreUrl, withoutUrlPassword } from './store-url.js';

/** The rejection of `promise`, which must be a CarteError. */
async function carteError(promise: Promise<unknown>): Promise<CarteError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CarteError);
  return err as CarteError;
}

describe.skipIf(!PG_RUN_URL)('PostgreSQL store', () => {
  it('is at the SQLite schema version', () => {
    expect(PG_SCHEMA_VERSION).toBe(SCHEMA_VERSION);
  });

  it('two stores opened at once on an empty database migrate it once, and both work', async () => {
    const url = await createDatabase();
    const stores: Store[] = await Promise.all([openStore(url), openStore(url), openStore(url)]);
    try {
      const versions = await onDatabase(
        url,
        async (c) => (await c.query<{ version: number }>('SELECT version FROM carte_schema')).rows,
      );
      expect(versions).toEqual([{ version: SCHEMA_VERSION }]);
      await stores[0]!.servers.reconcileConfig('a', 'h');
      await stores[1]!.servers.reconcileConfig('b', 'h');
      expect((await stores[2]!.servers.list()).map((s) => s.id)).toEqual(['a', 'b']);
      expect(stores.map((s) => [s.engine, s.path])).toEqual(stores.map(() => ['postgres', url]));
      expect(await stores[0]!.checkIntegrity()).toBe('ok');
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('refuses a database at a newer schema version, naming both', async () => {
    const url = await createDatabase();
    await (await openStore(url)).close();
    await onDatabase(url, (c) => c.query('UPDATE carte_schema SET version = $1', [SCHEMA_VERSION + 2]));
    const err = await carteError(openStore(url));
    expect(err.code).toBe('store');
    expect(err.message).toBe(
      `the store at "${url}" has schema version ${SCHEMA_VERSION + 2}, newer than this Carte's ${SCHEMA_VERSION}; upgrade Carte or point store.url elsewhere`,
    );
  });

  it('a role that may read and write the tables, but not create any, opens a current database', async () => {
    const url = await createDatabase();
    await (await openStore(url)).close();
    const role = `carte_app_${randomBytes(4).toString('hex')}`;
    await onDatabase(url, (c) =>
      c.query(
        `CREATE ROLE ${role} LOGIN; GRANT USAGE ON SCHEMA public TO ${role};
         GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role};
         GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ${role}`,
      ),
    );
    const asRole = new URL(url);
    asRole.username = role;
    try {
      const store = await openStore(asRole.toString());
      await store.servers.reconcileConfig('a', 'h');
      await store.close();
    } finally {
      await onDatabase(url, (c) => c.query(`DROP OWNED BY ${role}; DROP ROLE ${role}`));
    }
  });

  it('a transaction holds one connection: other writers are not part of it', async () => {
    const url = await createDatabase();
    const store = await openStore(url);
    try {
      await expect(
        store.transaction(async (tx) => {
          await tx.servers.reconcileConfig('inside', 'h');
          await store.servers.reconcileConfig('outside', 'h'); // the pool: its own commit
          expect((await tx.servers.list()).map((s) => s.id)).toEqual(['inside', 'outside']);
          throw new CarteError('bad_input', 'undo');
        }),
      ).rejects.toThrow('undo');
      expect((await store.servers.list()).map((s) => s.id)).toEqual(['outside']);
    } finally {
      await store.close();
    }
  });
});

describe('PostgreSQL store URLs', () => {
  it('names an unreachable server without the password', async () => {
    const err = await carteError(openStore('postgres://carte:hunter2@127.0.0.1:1/carte'));
    expect(err.code).toBe('store');
    expect(err.message).toMatch(
      /^cannot open the store at "postgres:\/\/carte@127\.0\.0\.1:1\/carte": .*ECONNREFUSED/,
    );
    expect(`${err.message} ${err.operatorMessage} ${err.stack} ${String(err.cause)}`).not.toContain(
      'hunter2',
    );
  });

  it('names a URL that does not parse without the password', async () => {
    const err = await carteError(openStore('postgres://carte:hunter2@[nope/carte'));
    expect(err.message).toBe(
      'cannot open the store at "postgres://carte@[nope/carte": it is not a valid URL',
    );
    expect(err.cause).toBeUndefined();
  });

  it('takes the pool size from ?pool= and keeps passwords out of the printable URL', () => {
    expect(parseStoreUrl('postgres://u:pw@h:5433/db?pool=3&sslmode=disable', 10)).toEqual({
      connectionString: 'postgres://u:pw@h:5433/db?sslmode=disable',
      printable: 'postgres://u@h:5433/db?sslmode=disable',
      poolSize: 3,
    });
    expect(parseStoreUrl('postgresql://h/db?password=pw', 10)).toMatchObject({
      printable: 'postgresql://h/db',
      poolSize: 10,
    });
    expect(() => parseStoreUrl('postgres://u:pw@h/db?pool=0', 10)).toThrow(
      'the pool size in the store URL "postgres://u@h/db" must be a whole number of at least 1, not "0"',
    );
  });

  it.each([
    ['mysql://u:hunter2@h/db', 'mysql://u@h/db'],
    ['postgres://h/db?sslpassword=hunter2&password=hunter2', 'postgres://h/db?sslpassword=***&password=***'],
    ['not a url', 'not a url'],
  ])('prints %s without its password, parsed or not', (url, printable) => {
    expect(withoutUrlPassword(url)).toBe(printable);
  });
});
