// `carte store copy`: the SQLite store of one machine into an empty PostgreSQL database, table by
// table in one transaction, with each table's count checked after the commit.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { CarteError } from '../errors.js';
import { openDatabase } from './sqlite/sqlite.js';

/** The store's tables, parents before children (tools name their server). */
export const STORE_TABLES = [
  'servers',
  'tools',
  'tool_vectors',
  'search_snapshots',
  'activity',
  'tokens',
  'proposals',
  'tool_pins',
  'quarantine',
  'upstream_auth',
] as const;

/** Rows read from SQLite per INSERT batch. */
const BATCH_ROWS = 2_000;

export interface TableCopy {
  table: string;
  rows: number;
}

/**
 * Copies the SQLite store at `from` into the empty PostgreSQL database at `to`; `progress` hears
 * each table as it is copied. Refuses a target that holds any row, and a count that differs.
 */
export async function copyStore(
  from: string,
  to: string,
  progress: (t: TableCopy) => void = () => undefined,
): Promise<TableCopy[]> {
  if (!existsSync(from)) throw new CarteError('bad_input', `no store at "${from}" to copy`);
  const opened = openDatabase(from); // the source at this Carte's schema version, as the target will be
  opened.checkpoints?.stop();
  opened.db.close();
  const { openCopyTarget } = await import('./pg/copy-target.js');
  const target = await openCopyTarget(to);
  const source = new Database(from, { readonly: true, fileMustExist: true });
  try {
    const full = await target.nonEmpty(STORE_TABLES);
    if (full.length > 0)
      throw new CarteError(
        'bad_input',
        `the store at "${target.printable}" is not empty (${full.join(', ')} hold rows); copy into an empty database`,
      );
    const copied: TableCopy[] = [];
    for (const table of STORE_TABLES) {
      const rows = await copyTable(source, table, (t, c, r) => target.insert(t, c, r));
      copied.push({ table, rows });
      progress({ table, rows });
    }
    await target.commit();
    for (const { table, rows } of copied) {
      const there = await target.count(table);
      if (there !== rows)
        throw new CarteError(
          'store',
          `table ${table}: copied ${rows} rows, but "${target.printable}" holds ${there}`,
        );
    }
    return copied;
  } finally {
    source.close();
    await target.close();
  }
}

async function copyTable(
  source: Database.Database,
  table: string,
  insert: (table: string, columns: readonly string[], rows: readonly unknown[][]) => Promise<void>,
): Promise<number> {
  const stmt = source.prepare(`SELECT * FROM ${table} ORDER BY rowid`).raw(true);
  const columns = stmt.columns().map((c) => c.name);
  let batch: unknown[][] = [];
  let n = 0;
  for (const row of stmt.iterate() as IterableIterator<unknown[]>) {
    batch.push(row);
    if (batch.length === BATCH_ROWS) {
      await insert(table, columns, batch);
      n += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) await insert(table, columns, batch);
  return n + batch.length;
}
