import { CarteError } from '../../errors.js';
import type { SecretBox } from './secret-box.js';
import { prepared, type Db } from './sqlite.js';

/** The subject of the deployment's shared sign-in (`oauth.identity: shared`). */
export const SHARED_SUBJECT = '';

/** What may be shown of a server's sign-in: never a secret. Times are unix epoch ms. */
export interface UpstreamAuthMeta {
  serverId: string;
  /** Whose sign-in: an identity provider's subject (`oauth.identity: per-user`), '' for the shared one. */
  subject: string;
  /** When the access token expires, if the server said. */
  expiresAt: number | null;
  /** The scopes granted, space-separated, if the server said. */
  scope: string | null;
  /** Whether a refresh token is held. */
  refreshable: boolean;
  updatedAt: number;
}

/** What a save records in clear beside the sealed record; `subject` absent: the shared sign-in. */
export type UpstreamAuthFacts = Omit<UpstreamAuthMeta, 'serverId' | 'updatedAt' | 'subject'> & {
  subject?: string;
};

export interface UpstreamAuthDbRow {
  server_id: string;
  subject: string;
  sealed: string;
  expires_at: number | null;
  scope: string | null;
  refreshable: number;
  updated_at: number;
}

export function metaFromDb(r: UpstreamAuthDbRow): UpstreamAuthMeta {
  return {
    serverId: r.server_id,
    subject: r.subject,
    expiresAt: r.expires_at,
    scope: r.scope,
    refreshable: r.refreshable !== 0,
    updatedAt: r.updated_at,
  };
}

/**
 * The context a record is sealed under: a sealed value copied to another row (another server, or
 * another subject's row of the same server) does not open. The shared sign-in's context is the one
 * from before per-user identities, so its records still open. Server ids hold no `#`, so the
 * first `#` ends the server id whatever the subject holds.
 */
export const sealContext = (serverId: string, subject: string = SHARED_SUBJECT): string =>
  subject === SHARED_SUBJECT ? `upstream_auth:${serverId}` : `upstream_auth:${serverId}#${subject}`;

/** The context a stored row was sealed under (what `put` gave `sealContext`), whatever its key columns. */
export const rowContext = (r: UpstreamAuthDbRow): string => sealContext(r.server_id, r.subject);

/** Told of each row a re-seal reaches: its server, its place, how many there are. */
export type ResealProgress = (serverId: string, index: number, total: number) => void;

/**
 * One row re-sealed under the box's current key: opened with its own context and sealed again;
 * undefined when it is sealed under the current key already. A row no key opens stops the re-seal,
 * naming its server and the way out.
 */
export function resealed(box: SecretBox, r: UpstreamAuthDbRow): string | undefined {
  if (box.isCurrent(r.sealed)) return undefined;
  const context = rowContext(r);
  let plain: string;
  try {
    plain = box.open(r.sealed, context);
  } catch (err) {
    if (!(err instanceof CarteError) || err.code !== 'store') throw err; // a malformed key, named
    throw new CarteError(
      'store',
      `the sign-in of server "${r.server_id}" opens with neither the current nor the previous secret key; nothing was re-sealed. Give the key that sealed it as the previous key, or forget it with \`carte auth logout ${r.server_id}\` and run this again`,
      { cause: err },
    );
  }
  return box.seal(plain, context);
}

/**
 * Each upstream's OAuth records (tokens, registered client, discovery), one per subject, sealed
 * with the store's secret box (secret-box.ts): the database holds ciphertext only.
 */
export class UpstreamAuthRepo {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  /** The record of the server's `subject` ('' shared), opened, with its clear facts; undefined when none. */
  get(
    serverId: string,
    subject: string = SHARED_SUBJECT,
  ): { meta: UpstreamAuthMeta; record: unknown } | undefined {
    const r = prepared(this.db, 'SELECT * FROM upstream_auth WHERE server_id = ? AND subject = ?').get(
      serverId,
      subject,
    ) as UpstreamAuthDbRow | undefined;
    if (!r) return undefined;
    return {
      meta: metaFromDb(r),
      record: JSON.parse(this.box.open(r.sealed, sealContext(serverId, subject))),
    };
  }

  /** Seals and saves the record of the server's `facts.subject` (shared when absent), replacing any. */
  put(serverId: string, record: unknown, facts: UpstreamAuthFacts, at: number = Date.now()): void {
    const { subject = SHARED_SUBJECT, ...clear } = facts;
    const sealed = this.box.seal(JSON.stringify(record), sealContext(serverId, subject));
    prepared(
      this.db,
      `INSERT INTO upstream_auth (server_id, subject, sealed, expires_at, scope, refreshable, updated_at)
       VALUES (@serverId, @subject, @sealed, @expiresAt, @scope, @refreshable, @at)
       ON CONFLICT(server_id, subject) DO UPDATE SET sealed = excluded.sealed,
         expires_at = excluded.expires_at, scope = excluded.scope, refreshable = excluded.refreshable,
         updated_at = excluded.updated_at`,
    ).run({ serverId, subject, sealed, ...clear, refreshable: clear.refreshable ? 1 : 0, at });
  }

  /**
   * Re-seals every row not sealed under the current key (a key rotation), in one transaction:
   * all or nothing. Each row is found again by its old sealed value, whatever its key columns.
   */
  reseal(progress?: ResealProgress): { resealed: number; total: number } {
    this.box.check();
    return this.db
      .transaction(() => {
        const all = prepared(
          this.db,
          'SELECT * FROM upstream_auth ORDER BY server_id, subject',
        ).all() as UpstreamAuthDbRow[];
        const update = prepared(this.db, 'UPDATE upstream_auth SET sealed = ? WHERE sealed = ?');
        let count = 0;
        all.forEach((r, i) => {
          progress?.(r.server_id, i, all.length);
          const sealed = resealed(this.box, r);
          if (sealed === undefined) return;
          update.run(sealed, r.sealed);
          count++;
        });
        return { resealed: count, total: all.length };
      })
      .immediate();
  }

  /** Forgets the record of the server's `subject` ('' shared); false when there was none. */
  remove(serverId: string, subject: string = SHARED_SUBJECT): boolean {
    return (
      prepared(this.db, 'DELETE FROM upstream_auth WHERE server_id = ? AND subject = ?').run(
        serverId,
        subject,
      ).changes > 0
    );
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

  /** Every record's clear facts, by server then subject (nothing is opened). */
  list(): UpstreamAuthMeta[] {
    const rows = prepared(
      this.db,
      'SELECT * FROM upstream_auth ORDER BY server_id, subject',
    ).all() as UpstreamAuthDbRow[];
    return rows.map(metaFromDb);
  }
}
