// What the PostgreSQL repositories run their statements on: the store's pool, or the one client
// of a transaction (pg-store.ts), so the same classes serve both.
import pg from 'pg';

/** A pg Pool (each statement on any free connection) or a PoolClient inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

/**
 * Our own type parsers, not pg's global set: BIGINT (epoch ms, ids, counts) and NUMERIC (sums of
 * BIGINT) come back as JS numbers, as SQLite gives them. Every value we store fits a double.
 */
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const toNumber = (text: string): number => Number(text);
export const PG_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID || oid === NUMERIC_OID
      ? toNumber
      : (pg.types.getTypeParser as (o: number, f?: string) => unknown)(
          oid,
          format,
        )) as pg.CustomTypesConfig['getTypeParser'],
};

/** The rows of one parameterised statement, optionally named (prepared once per connection). */
export async function rows<R>(
  q: Queryable,
  text: string,
  values: unknown[] = [],
  name?: string,
): Promise<R[]> {
  const result = await q.query<R & pg.QueryResultRow>(
    name === undefined ? { text, values } : { name, text, values },
  );
  return result.rows;
}

/** The first row, or undefined. */
export async function row<R>(
  q: Queryable,
  text: string,
  values: unknown[] = [],
  name?: string,
): Promise<R | undefined> {
  return (await rows<R>(q, text, values, name))[0];
}

/** The rows as arrays of column values (`rowMode: 'array'`). */
export async function rawRows(q: Queryable, text: string, values: unknown[] = []): Promise<unknown[][]> {
  const result = await q.query<unknown[]>({ text, values, rowMode: 'array' });
  return result.rows;
}

/** How many rows a statement changed. */
export async function changes(
  q: Queryable,
  text: string,
  values: unknown[] = [],
  name?: string,
): Promise<number> {
  const result = await q.query(name === undefined ? { text, values } : { name, text, values });
  return result.rowCount ?? 0;
}

/**
 * Runs `fn` atomically, as SQLite's `db.transaction` does: on the pool, in a transaction on one
 * client; inside a store transaction (a client), in a savepoint, so a failure undoes only `fn`.
 */
export async function atomically<T>(q: Queryable, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  if (!(q instanceof pg.Pool)) return inSavepoint(q, fn);
  const client = await q.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      const value = await fn(client);
      await client.query('COMMIT');
      return value;
    } catch (err) {
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw err;
    }
  } finally {
    client.release(broken); // a client whose ROLLBACK failed is closed, not reused
  }
}

async function inSavepoint<T>(client: pg.PoolClient, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  await client.query('SAVEPOINT carte_atomically');
  try {
    const value = await fn(client);
    await client.query('RELEASE SAVEPOINT carte_atomically');
    return value;
  } catch (err) {
    await client.query('ROLLBACK TO SAVEPOINT carte_atomically');
    await client.query('RELEASE SAVEPOINT carte_atomically');
    throw err;
  }
}
