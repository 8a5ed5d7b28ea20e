import type { SnapshotsContract } from './contracts.js';
import { SNAPSHOTS_KEPT } from '../sqlite/snapshots-repo.js';
import { atomically, changes, row, rows, type Queryable } from './db.js';

/** The search_snapshots table on PostgreSQL: the contract of ../snapshots-repo.ts. */
export class PgSnapshotsRepo implements SnapshotsContract {
  constructor(private readonly q: Queryable) {}

  async get(key: string): Promise<Buffer | undefined> {
    const r = await row<{ data: Buffer }>(this.q, 'SELECT data FROM search_snapshots WHERE key = $1', [key]);
    return r?.data;
  }

  /** Stores `data` under `key` and drops all but the newest SNAPSHOTS_KEPT snapshots. */
  async put(key: string, data: Uint8Array): Promise<void> {
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    await atomically(this.q, async (c) => {
      await c.query(
        `INSERT INTO search_snapshots (key, data, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET data = excluded.data, created_at = excluded.created_at`,
        [key, bytes, new Date().toISOString()],
      );
      await c.query(
        `DELETE FROM search_snapshots WHERE key NOT IN
           (SELECT key FROM search_snapshots ORDER BY created_at DESC, seq DESC LIMIT ${SNAPSHOTS_KEPT})`,
      );
    });
  }

  /** Drops every snapshot; returns how many. */
  async clear(): Promise<number> {
    return changes(this.q, 'DELETE FROM search_snapshots');
  }

  async keys(): Promise<string[]> {
    const found = await rows<{ key: string }>(
      this.q,
      'SELECT key FROM search_snapshots ORDER BY created_at, seq',
    );
    return found.map((r) => r.key);
  }
}
