import { prepared, type Db } from './sqlite.js';

/** Snapshots kept: the newest few, so two configs sharing a data dir do not evict each other. */
export const SNAPSHOTS_KEPT = 2;

/** The search_snapshots table: derived search state by key (search/lexical/snapshot.ts); a pure cache. */
export class SnapshotsRepo {
  private readonly putTx;

  constructor(private readonly db: Db) {
    this.putTx = db.transaction((key: string, data: Uint8Array, at: string) => {
      prepared(
        this.db,
        `INSERT INTO search_snapshots (key, data, created_at) VALUES (?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET data = excluded.data, created_at = excluded.created_at`,
      ).run(key, data, at);
      prepared(
        this.db,
        `DELETE FROM search_snapshots WHERE key NOT IN
           (SELECT key FROM search_snapshots ORDER BY created_at DESC, rowid DESC LIMIT ${SNAPSHOTS_KEPT})`,
      ).run();
    });
  }

  get(key: string): Buffer | undefined {
    return prepared(this.db, 'SELECT data FROM search_snapshots WHERE key = ?').pluck().get(key) as
      Buffer | undefined;
  }

  /** Stores `data` under `key` and drops all but the newest SNAPSHOTS_KEPT snapshots. */
  put(key: string, data: Uint8Array): void {
    this.putTx.immediate(key, data, new Date().toISOString());
  }

  /** Drops every snapshot (the next search of each catalog rebuilds and stores its own); returns how many. */
  clear(): number {
    return prepared(this.db, 'DELETE FROM search_snapshots').run().changes;
  }

  keys(): string[] {
    return prepared(this.db, 'SELECT key FROM search_snapshots ORDER BY created_at, rowid')
      .pluck()
      .all() as string[];
  }
}
