import type { ServersContract } from './contracts.js';
import { fromDb, type DiscoveryOutcome, type ServerDbRow } from '../sqlite/servers-repo.js';
import type { DiscoveryStatus, ServerRow } from '../sqlite/types.js';
import type { Announce } from './changes.js';
import { atomically, changes, row, rows, type Queryable } from './db.js';

/**
 * Servers table on PostgreSQL: the contract of ../servers-repo.ts. Writes that change what other
 * replicas read call `announce`; a discovery that found what the last one found does not.
 */
export class PgServersRepo implements ServersContract {
  constructor(
    private readonly q: Queryable,
    private readonly announce: Announce = () => Promise.resolve(),
  ) {}

  async get(id: string): Promise<ServerRow | undefined> {
    const r = await row<ServerDbRow>(this.q, 'SELECT * FROM servers WHERE id = $1', [id]);
    return r && fromDb(r);
  }

  async list(): Promise<ServerRow[]> {
    return (await rows<ServerDbRow>(this.q, 'SELECT * FROM servers ORDER BY id')).map(fromDb);
  }

  /** See ServersRepo.reconcileConfig: a changed hash drops the server's tools, and announces it. */
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
    await this.announce(); // the tools are gone and the status is `never`: other replicas' mirrors are stale
    return true;
  }

  async setStatus(id: string, status: DiscoveryStatus): Promise<void> {
    await changes(this.q, 'UPDATE servers SET status = $1 WHERE id = $2', [status, id]);
  }

  /**
   * See ServersRepo.recordDiscovery. Announces only when the row changed in what another replica
   * shows: anything but the time of the discovery. A row left `discovering` by this sync counts as
   * the status its other columns imply, so a discovery that found what the last one found is no
   * change.
   */
  async recordDiscovery(id: string, o: DiscoveryOutcome): Promise<void> {
    const discoverResult =
      o.discoverResult === undefined || o.discoverResult === null ? null : JSON.stringify(o.discoverResult);
    const r = await row<{ changed: boolean }>(
      this.q,
      `WITH before AS (SELECT * FROM servers WHERE id = $1 FOR UPDATE)
       UPDATE servers s SET status = $2, last_discovery_at = $3, last_error = $4,
         tool_count = COALESCE($5, s.tool_count), protocol_era = COALESCE($6, s.protocol_era),
         server_name = COALESCE($7, s.server_name), server_version = COALESCE($8, s.server_version),
         instructions = COALESCE($9, s.instructions), warnings = COALESCE($10, s.warnings),
         discover_result = CASE WHEN $2 = 'success' THEN $11 ELSE s.discover_result END
       FROM before WHERE s.id = before.id
       RETURNING (s.status, s.last_discovery_at IS NULL, s.last_error, s.tool_count, s.protocol_era,
                  s.server_name, s.server_version, s.instructions, s.warnings, s.discover_result)
         IS DISTINCT FROM
                 (CASE WHEN before.status <> 'discovering' THEN before.status
                       WHEN before.last_discovery_at IS NULL THEN 'never'
                       WHEN before.last_error IS NOT NULL THEN 'failed' ELSE 'success' END,
                  before.last_discovery_at IS NULL, before.last_error, before.tool_count, before.protocol_era,
                  before.server_name, before.server_version, before.instructions, before.warnings,
                  before.discover_result) AS changed`,
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
    if (r?.changed === true) await this.announce();
  }

  /** Deletes servers (and their tools) whose ids are not in `keep`. Returns the removed ids. */
  async pruneExcept(keep: readonly string[]): Promise<string[]> {
    const gone = await atomically(this.q, async (c) => {
      const ids = await rows<{ id: string }>(c, 'SELECT id FROM servers ORDER BY id');
      const gone = ids.map((r) => r.id).filter((id) => !keep.includes(id));
      if (gone.length > 0) await c.query('DELETE FROM servers WHERE id = ANY($1::text[])', [gone]);
      return gone;
    });
    if (gone.length > 0) await this.announce();
    return gone;
  }
}
