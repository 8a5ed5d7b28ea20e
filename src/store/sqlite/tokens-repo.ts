import { CarteError, quote } from '../../errors.js';
import { editDistance } from '../../search/index.js';
import { prepared, type Db } from './sqlite.js';

/** A bearer token as stored: only a sha256 (hex) of its secret. Times are unix epoch ms. */
export interface TokenRow {
  id: string;
  name: string | null;
  project: string;
  scopes: string[];
  hash: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** Requests per minute this token may make (null: its project's default, or no limit). */
  ratePerMinute: number | null;
}

/** What a new token stores; it starts never used and not revoked. */
export type NewTokenRow = Omit<TokenRow, 'lastUsedAt' | 'revokedAt' | 'ratePerMinute'> & {
  ratePerMinute?: number | null;
};

/**
 * `last_used_at` is written at most this often per token (ms): resolving a token is on every
 * request's path, and a write there costs a lock on the whole database.
 */
export const TOUCH_INTERVAL_MS = 60_000;

/**
 * How long a token row read by its hash is kept in memory (ms). Every request resolves its
 * bearer; the SELECT costs ~20 µs of a loaded server's time (docs/benchmarks.md). A revocation in
 * this process drops the cache at once and expiry is checked on every use, so only a revocation
 * by another process (`carte token revoke`) can lag, by at most this (docs/security.md).
 */
export const TOKEN_CACHE_TTL_MS = 1_000;
/** Rows kept at most (the oldest goes first): one per token in use, so a bound, not a working set. */
export const TOKEN_CACHE_MAX = 1_000;

export interface TokenDbRow {
  id: string;
  name: string | null;
  project: string;
  scopes: string;
  hash: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
  rate_per_minute: number | null;
}

export function fromDb(r: TokenDbRow): TokenRow {
  return {
    id: r.id,
    name: r.name,
    project: r.project,
    scopes: JSON.parse(r.scopes) as string[],
    hash: r.hash,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
    ratePerMinute: r.rate_per_minute,
  };
}

/** Bearer tokens (issue 15) by public id: only a hash of each secret is stored. */
export class TokensRepo {
  /** When this process last wrote each token's last use, so most touches skip the database. */
  private readonly touched = new Map<string, number>();
  /** Rows recently found by hash, with when they were read (TOKEN_CACHE_TTL_MS). */
  private readonly recent = new Map<string, { row: TokenRow; at: number }>();

  constructor(protected readonly db: Db) {}

  insert(row: NewTokenRow): void {
    prepared(
      this.db,
      `INSERT INTO tokens (id, name, project, scopes, hash, created_at, expires_at, rate_per_minute)
       VALUES (@id, @name, @project, @scopes, @hash, @createdAt, @expiresAt, @ratePerMinute)`,
    ).run({ ...row, scopes: JSON.stringify(row.scopes), ratePerMinute: row.ratePerMinute ?? null });
  }

  get(id: string): TokenRow | undefined {
    const row = prepared(this.db, 'SELECT * FROM tokens WHERE id = ?').get(id) as TokenDbRow | undefined;
    return row && fromDb(row);
  }

  findByHash(hash: string): TokenRow | undefined {
    const row = prepared(this.db, 'SELECT * FROM tokens WHERE hash = ?').get(hash) as TokenDbRow | undefined;
    return row && fromDb(row);
  }

  /**
   * `findByHash` through a cache of TOKEN_CACHE_TTL_MS: a row read less than that before `now` is
   * returned as read (frozen). Only rows are cached, never a miss (an unknown token costs a SELECT).
   */
  findByHashCached(hash: string, now: number): TokenRow | undefined {
    const hit = this.recent.get(hash);
    if (hit !== undefined) {
      const age = now - hit.at;
      if (age >= 0 && age < TOKEN_CACHE_TTL_MS) return hit.row;
      this.recent.delete(hash);
    }
    const row = this.findByHash(hash);
    if (row === undefined) return undefined;
    Object.freeze(row.scopes);
    if (this.recent.size >= TOKEN_CACHE_MAX) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(hash, { row: Object.freeze(row), at: now });
    return row;
  }

  /** Every token, oldest first (revoked and expired ones too). */
  list(): TokenRow[] {
    const rows = prepared(this.db, 'SELECT * FROM tokens ORDER BY created_at, id').all() as TokenDbRow[];
    return rows.map(fromDb);
  }

  /**
   * Revokes a token for good. Returns false when it was already revoked (its first revocation
   * time is kept); an unknown id is bad input, with the closest id when one is a likely typo.
   */
  revoke(id: string, at: number = Date.now()): boolean {
    const done = prepared(
      this.db,
      'UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
    ).run(at, id);
    if (done.changes > 0) {
      this.recent.clear(); // revocations are rare: no need to find the one entry
      return true;
    }
    if (this.get(id)) return false;
    throw new CarteError('bad_input', `unknown token id ${quote(id, 40)}${this.suggest(id)}`);
  }

  /**
   * Records a use of the token at `at`, writing at most once per TOUCH_INTERVAL_MS per token
   * (also across processes: the UPDATE skips a row written recently). Returns true when written.
   */
  touchLastUsed(id: string, at: number): boolean {
    const last = this.touched.get(id);
    if (last !== undefined && at - last < TOUCH_INTERVAL_MS) return false;
    this.touched.set(id, at);
    const done = prepared(
      this.db,
      'UPDATE tokens SET last_used_at = @at WHERE id = @id AND (last_used_at IS NULL OR last_used_at <= @at - @interval)',
    ).run({ id, at, interval: TOUCH_INTERVAL_MS });
    return done.changes > 0;
  }

  private suggest(id: string): string {
    const ids = (prepared(this.db, 'SELECT id FROM tokens').all() as Array<{ id: string }>).map((r) => r.id);
    let best: string | undefined;
    let bestDistance = 3; // more than 2 edits from every id: no guess
    for (const known of ids) {
      const d = editDistance(id.toLowerCase(), known, 2);
      if (d < bestDistance) [best, bestDistance] = [known, d];
    }
    return best === undefined
      ? '; run "carte token list" to see the ids'
      : `; did you mean ${JSON.stringify(best)}?`;
  }
}
