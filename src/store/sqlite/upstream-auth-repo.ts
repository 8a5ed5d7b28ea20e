import type { SecretBox } from './secret-box.js';
import { prepared, type Db } from './sqlite.js';

/** What may be shown of a server's sign-in: never a secret. Times are unix epoch ms. */
export interface UpstreamAuthMeta {
  serverId: string;
  /** When the access token expires, if the server said. */
  expiresAt: number | null;
  /** The scopes granted, space-separated, if the server said. */
  scope: string | null;
  /** Whether a refresh token is held. */
  refreshable: boolean;
  updatedAt: number;
}

/** What a save records in clear beside the sealed record. */
export type UpstreamAuthFacts = Omit<UpstreamAuthMeta, 'serverId' | 'updatedAt'>;

export interface UpstreamAuthDbRow {
  server_id: string;
  sealed: string;
  expires_at: number | null;
  scope: string | null;
  refreshable: number;
  updated_at: number;
}

export function metaFromDb(r: UpstreamAuthDbRow): UpstreamAuthMeta {
  return {
    serverId: r.server_id,
    expiresAt: r.expires_at,
    scope: r.scope,
    refreshable: r.refreshable !== 0,
    updatedAt: r.updated_at,
  };
}

/** The context a server's record is sealed under: a sealed value copied to another row does not open. */
export const sealContext = (serverId: string): string => `upstream_auth:${serverId}`;

/**
 * Each upstream's OAuth record (tokens, registered client, discovery), sealed with the store's
 * secret box (secret-box.ts): the database holds ciphertext only.
 */
export class UpstreamAuthRepo {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  /** The server's record, opened, with its clear facts; undefined when it has none. */
  get(serverId: string): { meta: UpstreamAuthMeta; record: unknown } | undefined {
    const r = prepared(this.db, 'SELECT * FROM upstream_auth WHERE server_id = ?').get(serverId) as
      UpstreamAuthDbRow | undefined;
    if (!r) return undefined;
    return { meta: metaFromDb(r), record: JSON.parse(this.box.open(r.sealed, sealContext(serverId))) };
  }

  /** Seals and saves the server's record (replacing any). */
  put(serverId: string, record: unknown, facts: UpstreamAuthFacts, at: number = Date.now()): void {
    const sealed = this.box.seal(JSON.stringify(record), sealContext(serverId));
    prepared(
      this.db,
      `INSERT INTO upstream_auth (server_id, sealed, expires_at, scope, refreshable, updated_at)
       VALUES (@serverId, @sealed, @expiresAt, @scope, @refreshable, @at)
       ON CONFLICT(server_id) DO UPDATE SET sealed = excluded.sealed, expires_at = excluded.expires_at,
         scope = excluded.scope, refreshable = excluded.refreshable, updated_at = excluded.updated_at`,
    ).run({ serverId, sealed, ...facts, refreshable: facts.refreshable ? 1 : 0, at });
  }

  /** Forgets the server's record; false when there was none. */
  remove(serverId: string): boolean {
    return prepared(this.db, 'DELETE FROM upstream_auth WHERE server_id = ?').run(serverId).changes > 0;
  }

  /**
   * Moves whenever a record is saved or forgotten (by any process): a gateway on SQLite reads it
   * per request to notice a sign-in made by `carte auth login` (PostgreSQL announces it instead).
   */
  signature(): string {
    return String(
      prepared(
        this.db,
        "SELECT count(*) || ':' || coalesce(max(updated_at), 0) || ':' || coalesce(sum(updated_at % 1000003), 0) FROM upstream_auth",
      )
        .pluck()
        .get(),
    );
  }

  /** Every server's clear facts, by id (nothing is opened). */
  list(): UpstreamAuthMeta[] {
    const rows = prepared(
      this.db,
      'SELECT * FROM upstream_auth ORDER BY server_id',
    ).all() as UpstreamAuthDbRow[];
    return rows.map(metaFromDb);
  }
}
