import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CarteError } from '../errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

export type Db = Database.Database;

/** Opens (creating if needed) the SQLite file in WAL mode and brings its schema up to date. */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  let db: Db;
  try {
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
  } catch (err) {
    throw new CarteError('store', `cannot open the store at "${path}": ${(err as Error).message}`, {
      cause: err,
    });
  }
  migrate(db, path);
  return db;
}

function migrate(db: Db, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    db.close();
    throw new CarteError(
      'store',
      `the store at "${path}" has schema version ${version}, newer than this Carte's ${SCHEMA_VERSION}; upgrade Carte or point --data-dir elsewhere`,
    );
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
