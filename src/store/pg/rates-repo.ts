// Rate-limit counters shared by every replica (issue 40, item 5): the contract of
// ../sqlite/rates-repo.ts over two small tables. A hit is one statement, one round trip: an
// upsert that adds 1 to the key's row for the window and returns the count, atomically however
// many replicas hit the same key at once (the row's lock orders them), with the block read in the
// same statement.
import type { RateHit } from '../sqlite/rates-repo.js';
import type { RatesContract } from './contracts.js';
import { changes, row, type Queryable } from './db.js';

const HIT = {
  name: 'carte_rate_hit',
  text: `WITH hit AS (
           INSERT INTO rate_windows (key, window_start, hits) VALUES ($1, $2, 1)
           ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_windows.hits + 1
           RETURNING hits)
         SELECT (SELECT hits FROM hit) AS hits,
                (SELECT until FROM rate_blocks WHERE key = $3 AND until > $4) AS "blockedUntil"`,
};

/** HIT with a second key counted in the same statement (a project's total): one round trip still. */
const HIT_ALSO = {
  name: 'carte_rate_hit_also',
  text: `WITH hit AS (
           INSERT INTO rate_windows (key, window_start, hits) VALUES ($1, $2, 1), ($5, $2, 1)
           ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_windows.hits + 1
           RETURNING key, hits)
         SELECT (SELECT hits FROM hit WHERE key = $1) AS hits,
                (SELECT hits FROM hit WHERE key = $5) AS "alsoHits",
                (SELECT until FROM rate_blocks WHERE key = $3 AND until > $4) AS "blockedUntil"`,
};

export class PgRatesRepo implements RatesContract {
  constructor(private readonly q: Queryable) {}

  async hit(
    key: string,
    windowStart: number,
    q: { blockKey?: string; also?: string; now: number },
  ): Promise<RateHit> {
    const values = [key, windowStart, q.blockKey ?? null, q.now];
    if (q.also === undefined) return (await row<RateHit>(this.q, HIT.text, values, HIT.name))!;
    // Every request of a project locks its total's row in the same order (its own key first): no deadlock.
    return (await row<RateHit>(this.q, HIT_ALSO.text, [...values, q.also], HIT_ALSO.name))!;
  }

  async block(key: string, until: number): Promise<void> {
    await this.q.query(
      `INSERT INTO rate_blocks (key, until) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET until = greatest(rate_blocks.until, EXCLUDED.until)`,
      [key, until],
    );
  }

  async blockedUntil(key: string, now: number): Promise<number | null> {
    const r = await row<{ until: number }>(
      this.q,
      'SELECT until FROM rate_blocks WHERE key = $1 AND until > $2',
      [key, now],
    );
    return r?.until ?? null;
  }

  async prune(before: number): Promise<number> {
    return (
      (await changes(this.q, 'DELETE FROM rate_windows WHERE window_start < $1', [before])) +
      (await changes(this.q, 'DELETE FROM rate_blocks WHERE until <= $1', [before]))
    );
  }
}
