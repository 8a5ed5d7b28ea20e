// The PostgreSQL end of `carte store copy`: a migrated, empty database that takes whole tables
// in one transaction (all of the copy lands, or none of it).
import pg from 'pg';
import { CarteError } from '../../errors.js';
import { PG_TYPES } from './db.js';
import { migrate } from './migrations.js';
import { parseStoreUrl } from './store-url.js';

/** Bound parameters per INSERT: PostgreSQL takes at most 65,535. */
const MAX_PARAMS = 30_000;

export interface CopyTarget {
  printable: string;
  /** Tables of `tables` that hold rows already. */
  nonEmpty(tables: readonly string[]): Promise<string[]>;
  /** Appends rows (values in `columns` order) inside the copy's transaction. */
  insert(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void>;
  /** Commits the copy; identity counters continue after the copied ids. */
  commit(): Promise<void>;
  count(table: string): Promise<number>;
  close(): Promise<void>;
}

export async function openCopyTarget(url: string): Promise<CopyTarget> {
  const { connectionString, printable } = parseStoreUrl(url, 1);
  const pool = new pg.Pool({ connectionString, max: 1, types: PG_TYPES });
  pool.on('error', () => undefined);
  let client: pg.PoolClient;
  try {
    await migrate(pool, printable);
    client = await pool.connect();
  } catch (err) {
    await pool.end().catch(() => undefined);
    if (err instanceof CarteError) throw err;
    throw new CarteError('store', `cannot open the store at "${printable}": ${(err as Error).message}`);
  }
  let begun = false;
  return {
    printable,
    nonEmpty: async (tables) => {
      const full: string[] = [];
      for (const t of tables) {
        const r = await client.query(`SELECT EXISTS (SELECT 1 FROM ${t}) AS any`);
        if ((r.rows[0] as { any: boolean }).any) full.push(t);
      }
      return full;
    },
    insert: async (table, columns, rows) => {
      if (!begun) await client.query('BEGIN');
      begun = true;
      const per = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
      for (let i = 0; i < rows.length; i += per) {
        const batch = rows.slice(i, i + per);
        const values = batch.map(
          (_, r) => `(${columns.map((_c, c) => `$${r * columns.length + c + 1}`).join(', ')})`,
        );
        await client.query(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values.join(', ')}`,
          batch.flat(),
        );
      }
    },
    commit: async () => {
      if (!begun) return;
      await client.query(
        `SELECT setval(pg_get_serial_sequence('activity', 'id'), GREATEST((SELECT max(id) FROM activity), 1))`,
      );
      await client.query('COMMIT');
      begun = false;
    },
    count: async (table) => {
      const r = await client.query(`SELECT count(*) AS n FROM ${table}`);
      return (r.rows[0] as { n: number }).n;
    },
    close: async () => {
      if (begun) await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      await pool.end();
    },
  };
}
