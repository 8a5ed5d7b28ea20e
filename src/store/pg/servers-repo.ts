import type { ServersContract } from './contracts.js';
import { fromDb, type DiscoveryOutcome, type ServerDbRow } from '../sqlite/servers-repo.js';
import type { DiscoveryStatus, ServerRow } from '../sqlite/types.js';
import { atomically, changes, row, rows, type Queryable } from './db.js';

/** Servers table on PostgreSQL: the contract of ../servers-repo.ts. */
export class PgServersRepo implements ServersContract {
  constructor(private readonly q: Queryable) {}

  async get(id: string): Promise<ServerRow | undefined> {
    const r = await row<ServerDbRow>(this.q, 'SELECT * FROM servers WHERE id = $1', [id]);
    return r && fromDb(r);
  }

  async list(): Promise<ServerRow[]> {
    return (await rows<ServerDbRow>(this.q, 'SELECT * FROM servers ORDER BY id')).map(fromDb);
  }

  /** See ServersRepo.reconcileConfig: a changed hash drops the server's tools. */
  async reconcileConfig(id: string, configHash: string): Promise<boolean> {
    const existing = await this.get(id);
    if (existing?.configHash === configHash) return false;
    await atomically(this.q, async (c) => {
      await c.query('DELETE FROM tools WHERE server_id = $1', [id]);
      await c.query(
        `INSERT INTO servers (id, config_hash) VALUES ($1, $2)
         ON CONFLICT (id) DO UPDATE SET config_hash = excluded.config_hash, status = 'never',
           tool_count = 0, last_error = NULL, protocol_era = NULL, warnings = '[]', discover_result = NULL`,
        [id, configHash],
      );
    });
    return true;
  }

  async setStatus(id: string, status: DiscoveryStatus): Promise<void> {
    await changes(this.q, 'UPDATE servers SET status = $1 WHERE id = $2', [status, id]);
  }

  async recordDiscovery(id: string, o: DiscoveryOutcome): Promise<void> {
    const discoverResult =
      o.discoverResult === undefined || o.discoverResult === null ? null : JSON.stringify(o.discoverResult);
    await changes(
      this.q,
      `UPDATE servers SET status = $2, last_discovery_at = $3, last_error = $4,
         tool_count = COALESCE($5, tool_count), protocol_era = COALESCE($6, protocol_era),
         server_name = COALESCE($7, server_name), server_version = COALESCE($8, server_version),
         instructions = COALESCE($9, instructions), warnings = COALESCE($10, warnings),
         discover_result = CASE WHEN $2 = 'success' THEN $11 ELSE discover_result END
       WHERE id = $1`,
      [
        id,
        o.status,
        o.at,
        o.error ?? null,
        o.toolCount ?? null,
        o.protocolEra ?? null,
        o.serverName ?? null,
        o.serverVersion ?? null,
        o.instructions ?? null,
        o.warnings ? JSON.stringify(o.warnings) : null,
        discoverResult,
      ],
    );
  }

  /** Deletes servers (and their tools) whose ids are not in `keep`. Returns the removed ids. */
  async pruneExcept(keep: readonly string[]): Promise<string[]> {
    return atomically(this.q, async (c) => {
      const ids = await rows<{ id: string }>(c, 'SELECT id FROM servers ORDER BY id');
      const gone = ids.map((r) => r.id).filter((id) => !keep.includes(id));
      if (gone.length > 0) await c.query('DELETE FROM servers WHERE id = ANY($1::text[])', [gone]);
      return gone;
    });
  }
}
