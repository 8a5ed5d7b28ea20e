import { prepared, type Db } from './sqlite.js';
import type { DiscoveryStatus, ServerRow } from './types.js';

export interface ServerDbRow {
  id: string;
  config_hash: string;
  status: DiscoveryStatus;
  last_discovery_at: string | null;
  last_error: string | null;
  tool_count: number;
  protocol_era: string | null;
  server_name: string | null;
  server_version: string | null;
  instructions: string | null;
  warnings: string;
  discover_result: string | null;
}

export function fromDb(r: ServerDbRow): ServerRow {
  return {
    id: r.id,
    configHash: r.config_hash,
    status: r.status,
    lastDiscoveryAt: r.last_discovery_at,
    lastError: r.last_error,
    toolCount: r.tool_count,
    protocolEra: r.protocol_era,
    serverName: r.server_name,
    serverVersion: r.server_version,
    instructions: r.instructions,
    warnings: JSON.parse(r.warnings) as string[],
    discoverResult: r.discover_result === null ? null : (JSON.parse(r.discover_result) as unknown),
  };
}

/** What a finished discovery records about the server. */
export interface DiscoveryOutcome {
  status: 'success' | 'failed' | 'needs_sign_in';
  at: string;
  error?: string | null;
  toolCount?: number;
  protocolEra?: string | null;
  serverName?: string | null;
  serverVersion?: string | null;
  instructions?: string | null;
  warnings?: string[];
  discoverResult?: unknown;
}

/** Servers table: one row per configured server id. */
export class ServersRepo {
  constructor(private readonly db: Db) {}

  get(id: string): ServerRow | undefined {
    const row = prepared(this.db, 'SELECT * FROM servers WHERE id = ?').get(id) as ServerDbRow | undefined;
    return row && fromDb(row);
  }

  list(): ServerRow[] {
    return (prepared(this.db, 'SELECT * FROM servers ORDER BY id').all() as ServerDbRow[]).map(fromDb);
  }

  /**
   * Records the server's current config hash. A changed hash drops that server's cached tools
   * and marks it never discovered; other servers are untouched. Returns true when it changed.
   */
  reconcileConfig(id: string, configHash: string): boolean {
    const existing = this.get(id);
    if (existing?.configHash === configHash) return false;
    this.db.transaction(() => {
      prepared(this.db, 'DELETE FROM tools WHERE server_id = ?').run(id);
      this.db
        .prepare(
          `INSERT INTO servers (id, config_hash) VALUES (?, ?)
           ON CONFLICT(id) DO UPDATE SET config_hash = excluded.config_hash, status = 'never',
             tool_count = 0, last_error = NULL, protocol_era = NULL, warnings = '[]', discover_result = NULL`,
        )
        .run(id, configHash);
    })();
    return true;
  }

  setStatus(id: string, status: DiscoveryStatus): void {
    prepared(this.db, 'UPDATE servers SET status = ? WHERE id = ?').run(status, id);
  }

  recordDiscovery(id: string, o: DiscoveryOutcome): void {
    this.db
      .prepare(
        `UPDATE servers SET status = @status, last_discovery_at = @at, last_error = @error,
           tool_count = COALESCE(@toolCount, tool_count), protocol_era = COALESCE(@protocolEra, protocol_era),
           server_name = COALESCE(@serverName, server_name), server_version = COALESCE(@serverVersion, server_version),
           instructions = COALESCE(@instructions, instructions), warnings = COALESCE(@warnings, warnings),
           discover_result = CASE WHEN @status = 'success' THEN @discoverResult ELSE discover_result END
         WHERE id = @id`,
      )
      .run({
        id,
        status: o.status,
        at: o.at,
        error: o.error ?? null,
        toolCount: o.toolCount ?? null,
        protocolEra: o.protocolEra ?? null,
        serverName: o.serverName ?? null,
        serverVersion: o.serverVersion ?? null,
        instructions: o.instructions ?? null,
        warnings: o.warnings ? JSON.stringify(o.warnings) : null,
        discoverResult:
          o.discoverResult === undefined || o.discoverResult === null
            ? null
            : JSON.stringify(o.discoverResult),
      });
  }

  /** Deletes servers (and their tools) whose ids are not in `keep`. Returns the removed ids. */
  pruneExcept(keep: readonly string[]): string[] {
    const gone = this.list()
      .map((s) => s.id)
      .filter((id) => !keep.includes(id));
    const del = prepared(this.db, 'DELETE FROM servers WHERE id = ?');
    this.db.transaction(() => gone.forEach((id) => del.run(id)))();
    return gone;
  }
}
