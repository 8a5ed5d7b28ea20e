import { CarteError, quote } from '../../errors.js';
import { editDistance } from '../../search/index.js';
import type { TokensContract } from './contracts.js';
import {
  fromDb,
  TOKEN_CACHE_MAX,
  TOKEN_CACHE_TTL_MS,
  TOUCH_INTERVAL_MS,
  type NewTokenRow,
  type TokenDbRow,
  type TokenRow,
} from '../sqlite/tokens-repo.js';
import { changes, row, rows, type Queryable } from './db.js';
import { isAway } from './unavailable.js';

/** What a store's token repositories share (the pool's and a transaction's): one view of recent reads. */
export class TokenMemory {
  /** When this process last wrote each token's last use. */
  readonly touched = new Map<string, number>();
  /** Rows recently found by hash, with when they were read (TOKEN_CACHE_TTL_MS). */
  readonly recent = new Map<string, { row: TokenRow; at: number }>();
}

/** Bearer tokens on PostgreSQL: the contract of ../tokens-repo.ts. */
export class PgTokensRepo implements TokensContract {
  constructor(
    private readonly q: Queryable,
    private readonly memory: TokenMemory = new TokenMemory(),
  ) {}

  async insert(r: NewTokenRow): Promise<void> {
    await changes(
      this.q,
      `INSERT INTO tokens (id, name, project, scopes, hash, created_at, expires_at, rate_per_minute)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        r.id,
        r.name,
        r.project,
        JSON.stringify(r.scopes),
        r.hash,
        r.createdAt,
        r.expiresAt,
        r.ratePerMinute ?? null,
      ],
    );
  }

  async get(id: string): Promise<TokenRow | undefined> {
    const r = await row<TokenDbRow>(this.q, 'SELECT * FROM tokens WHERE id = $1', [id]);
    return r && fromDb(r);
  }

  /** The token whose secret hashes to `hash` (a named statement: every request resolves one). */
  async findByHash(hash: string): Promise<TokenRow | undefined> {
    const r = await row<TokenDbRow>(
      this.q,
      'SELECT * FROM tokens WHERE hash = $1',
      [hash],
      'carte_token_by_hash',
    );
    return r && fromDb(r);
  }

  /** `findByHash` through a cache of TOKEN_CACHE_TTL_MS (see TokensRepo.findByHashCached). */
  async findByHashCached(hash: string, now: number): Promise<TokenRow | undefined> {
    const { recent } = this.memory;
    const hit = recent.get(hash);
    if (hit !== undefined) {
      const age = now - hit.at;
      if (age >= 0 && age < TOKEN_CACHE_TTL_MS) return hit.row;
    }
    let found: TokenRow | undefined;
    try {
      found = await this.findByHash(hash);
    } catch (err) {
      // The database is away: nobody can revoke a token meanwhile, so the row last read is as
      // current as any (searches go on from memory; calls are refused for want of an audit row).
      if (hit !== undefined && isAway(err)) return hit.row;
      throw err;
    }
    if (hit !== undefined) recent.delete(hash);
    if (found === undefined) return undefined;
    Object.freeze(found.scopes);
    if (recent.size >= TOKEN_CACHE_MAX) recent.delete(recent.keys().next().value!);
    recent.set(hash, { row: Object.freeze(found), at: now });
    return found;
  }

  /** Every token, oldest first. */
  async list(): Promise<TokenRow[]> {
    return (await rows<TokenDbRow>(this.q, 'SELECT * FROM tokens ORDER BY created_at, id')).map(fromDb);
  }

  /** Revokes a token for good; false when already revoked; an unknown id is bad input. */
  async revoke(id: string, at: number = Date.now()): Promise<boolean> {
    const done = await changes(
      this.q,
      'UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL',
      [at, id],
    );
    if (done > 0) {
      this.memory.recent.clear();
      return true;
    }
    if (await this.get(id)) return false;
    throw new CarteError('bad_input', `unknown token id ${quote(id, 40)}${await this.suggest(id)}`);
  }

  /** Records a use, writing at most once per TOUCH_INTERVAL_MS per token (across processes too). */
  async touchLastUsed(id: string, at: number): Promise<boolean> {
    const last = this.memory.touched.get(id);
    if (last !== undefined && at - last < TOUCH_INTERVAL_MS) return false;
    this.memory.touched.set(id, at);
    const sql = `UPDATE tokens SET last_used_at = $2::bigint
                 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $2::bigint - $3::bigint)`;
    return (await changes(this.q, sql, [id, at, TOUCH_INTERVAL_MS], 'carte_token_touch')) > 0;
  }

  private async suggest(id: string): Promise<string> {
    const ids = (await rows<{ id: string }>(this.q, 'SELECT id FROM tokens')).map((r) => r.id);
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
