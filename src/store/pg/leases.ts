// Owners of `started` rows on PostgreSQL (issue 40, item 4). Replicas on several machines share the
// database, so no lock a process holds can tell another machine that it died; and a session-level
// advisory lock outlives a machine that vanished until TCP gives up (hours). So each replica that
// has begun a call keeps a lease: a row in `leases` it renews every `renewMs`. A lease not renewed
// for `ttlMs` (the database's own clock on both sides, so replicas' clocks may differ) is dead:
// any replica that notices (at its start, then at each renewal) deletes it and sets its `started`
// rows `interrupted`, in one statement, so two replicas noticing at once mark them once. A replica
// that stalled past `ttlMs` (a paused VM) and comes back takes its lease again; a call of its that
// then finishes overwrites its `interrupted` row with how it really ended.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { CarteError } from '../../errors.js';
import { INTERRUPTED, STARTED } from '../sqlite/activity-stats.js';
import { LEASE_DEFAULTS, type LeaseOptions, type SweepResult } from '../sqlite/leases.js';

export { LEASE_DEFAULTS };
import { changes, row } from './db.js';

/** The database's clock in epoch ms. */
const DB_NOW = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

const TAKE = `INSERT INTO leases (owner, host, pid, started_at, renewed_at) VALUES ($1, $2, $3, ${DB_NOW}, ${DB_NOW})
              ON CONFLICT (owner) DO UPDATE SET renewed_at = EXCLUDED.renewed_at`;
const RENEW = `UPDATE leases SET renewed_at = ${DB_NOW} WHERE owner = $1`;
/** $1: this replica; $2: now (epoch ms), or null for the database's clock; $3: ttlMs. */
const EXPIRED = `renewed_at < coalesce($2::bigint, ${DB_NOW}) - $3::bigint AND owner <> $1`;
const ANY_EXPIRED = `SELECT count(*)::int AS n FROM leases WHERE ${EXPIRED}`;
const SWEEP = `WITH dead AS (DELETE FROM leases WHERE ${EXPIRED} RETURNING owner),
                    marked AS (UPDATE activity SET outcome = '${INTERRUPTED}', detail = $4
                               WHERE outcome = '${STARTED}' AND owner IN (SELECT owner FROM dead) RETURNING 1)
               SELECT (SELECT count(*) FROM dead)::int AS owners, (SELECT count(*) FROM marked)::int AS rows`;

export class PgLeases {
  readonly owner = `${hostname().slice(0, 32)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private taken: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly options: LeaseOptions,
    /** A fixed clock (tests): compared with the leases' renewal times, and stamped on interrupted rows. */
    private readonly now?: () => number,
  ) {
    const { renewMs, ttlMs } = options;
    if (!(renewMs >= 100) || !(ttlMs >= 2 * renewMs)) {
      throw new CarteError(
        'bad_input',
        `a lease needs renewMs of at least 100 and ttlMs of at least twice that, not ${renewMs} and ${ttlMs}`,
      );
    }
  }

  /** Takes the lease if not yet held (before this replica's first `started` row). */
  ensure(): Promise<void> {
    this.taken ??= this.take().catch((err: unknown) => {
      this.taken = undefined;
      throw err;
    });
    return this.taken;
  }

  private async take(): Promise<void> {
    await this.pool.query(TAKE, [this.owner, hostname(), process.pid]);
  }

  /** Renews the lease (taking it again if another replica took it for dead) and sweeps, every renewMs. */
  start(onFailure: (err: unknown) => void): void {
    this.timer = setInterval(() => {
      void this.tick().catch(onFailure);
    }, this.options.renewMs);
    this.timer.unref(); // a command that only reads exits when its work is done
  }

  private async tick(): Promise<void> {
    if (this.taken && (await changes(this.pool, RENEW, [this.owner])) === 0) await this.take();
    await this.sweep();
  }

  /** Sets the `started` rows of every replica whose lease expired `interrupted`, and drops those leases. */
  async sweep(): Promise<SweepResult> {
    const at = this.now?.() ?? null;
    const args = [this.owner, at, this.options.ttlMs];
    const any = await row<{ n: number }>(this.pool, ANY_EXPIRED, args);
    if (!any || any.n === 0) return { owners: 0, rows: 0 };
    const iso = new Date(at ?? Date.now()).toISOString();
    return (await row<SweepResult>(this.pool, SWEEP, [...args, iso])) ?? { owners: 0, rows: 0 };
  }

  /**
   * Stops renewing. With no call in flight the lease ends; with calls in flight it is left to
   * expire, so another replica marks them `interrupted`, as after a kill.
   */
  async close(inFlight: number): Promise<void> {
    clearInterval(this.timer);
    if (this.taken && inFlight === 0) {
      await this.taken.catch(() => undefined);
      await this.pool.query('DELETE FROM leases WHERE owner = $1', [this.owner]).catch(() => undefined);
    }
  }
}
