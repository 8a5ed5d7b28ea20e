import { CarteError } from '../../errors.js';
import type { ActivityContract } from './contracts.js';
import {
  checkOptions,
  eventValues,
  roundMs,
  ACTIVITY_DEFAULTS,
  PRUNE_BATCH,
  PRUNE_EVERY,
  INTERRUPTED,
  OPEN_OUTCOMES,
  STARTED,
  type ActivityEvent,
  type ActivityOptions,
  type FinishedCall,
  type HotScore,
  type SessionEvent,
  type SessionStats,
  type StartedEvent,
  type ToolUsage,
} from '../sqlite/activity-repo.js';
import type { ActivityRange, CallBucket, ServerUsage } from '../sqlite/activity-stats.js';
import type { AuditQuery, AuditRow } from '../sqlite/audit-rows.js';
import { auditRows, hotScores } from './activity-reads.js';
import { callSeries, sessionStats, usageByServer, usageByTool } from './activity-stats.js';
import { changes, rawRows, row, type Queryable } from './db.js';
import { TurnGroup, writeTurn, type TurnWrite } from './activity-group.js';

const DAY_MS = 86_400_000;

// Named statements: each connection parses and plans them once (a write on every call's path).
const INSERT = {
  name: 'carte_activity_insert',
  text: `INSERT INTO activity (at, kind, key, server, outcome, duration_ms, result_bytes,
                               request_id, token_id, project, args_digest, args, detail, subject, client,
                               parent_id, owner)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id`,
};
const FINISH = {
  name: 'carte_activity_finish',
  text: `UPDATE activity SET outcome = $1, duration_ms = $2, result_bytes = $3,
           detail = coalesce($5, CASE WHEN outcome = '${INTERRUPTED}' THEN NULL ELSE detail END)
         WHERE id = $4 AND outcome IN (${OPEN_OUTCOMES})`,
};

/**
 * What the store's activity repositories (the pool's and each transaction's) share: writes counted
 * for pruning, calls begun and not finished, and the replica's lease (leases.ts).
 */
export interface WriteCounter {
  writes: number;
  open?: number;
  lease?: { readonly owner: string; ensure(): Promise<void> };
}

/** The activity table on PostgreSQL: the contract of ../activity-repo.ts. */
export class PgActivityRepo implements ActivityContract {
  constructor(
    private readonly q: Queryable,
    private readonly options: ActivityOptions = ACTIVITY_DEFAULTS,
    private readonly counter: WriteCounter = { writes: 0 },
  ) {
    checkOptions(options);
  }

  /** Appends one event; every PRUNE_EVERY writes, prunes a bounded batch. */
  async record(event: ActivityEvent): Promise<void> {
    await this.write(event, event.outcome, event.durationMs, event.resultBytes);
  }

  /** Appends a call's row as `started` and returns its id; committed when the promise resolves. */
  async begin(event: StartedEvent): Promise<number> {
    const owned = await this.owned(event);
    const id = await this.write(owned, STARTED, 0, undefined);
    this.counter.open = (this.counter.open ?? 0) + 1;
    return id;
  }

  /** `event` naming this replica's lease, taken first if this is its first call. */
  private async owned(event: StartedEvent): Promise<StartedEvent> {
    const lease = this.counter.lease;
    if (!lease) return event;
    await lease.ensure();
    return { ...event, owner: lease.owner };
  }

  /** Sets a begun row's outcome; false when no such `started` row is left. */
  async finish(id: number, end: FinishedCall): Promise<boolean> {
    this.counter.open = Math.max(0, (this.counter.open ?? 0) - 1);
    return this.update(id, end);
  }

  private async update(id: number, end: FinishedCall): Promise<boolean> {
    const values = [end.outcome, roundMs(end.durationMs), end.resultBytes ?? null, id, end.detail ?? null];
    return (await changes(this.q, FINISH.text, values, FINISH.name)) === 1;
  }

  /** `begin` in a group commit with the other writes of this turn (activity-group.ts). */
  async beginGrouped(event: StartedEvent): Promise<number> {
    const owned = await this.owned(event);
    const id = (await this.turn.add({ begin: eventValues(owned, STARTED, 0, undefined) })) as number;
    this.counter.open = (this.counter.open ?? 0) + 1;
    return id;
  }

  /** `finish` in a group commit with the other writes of this turn. */
  async finishGrouped(id: number, end: FinishedCall): Promise<boolean> {
    const finish = {
      id,
      outcome: end.outcome,
      durationMs: roundMs(end.durationMs),
      resultBytes: end.resultBytes ?? null,
      detail: end.detail ?? null,
    };
    this.counter.open = Math.max(0, (this.counter.open ?? 0) - 1);
    return (await this.turn.add({ finish })) as boolean;
  }

  private readonly turn = new TurnGroup<TurnWrite, number | boolean>(
    async (writes) => {
      const out = await writeTurn(this.q, writes);
      for (const w of writes) if ('begin' in w) await this.counted();
      return out;
    },
    (w) =>
      'begin' in w
        ? this.insert(w.begin)
        : this.update(w.finish.id, {
            ...w.finish,
            resultBytes: w.finish.resultBytes ?? undefined,
            detail: w.finish.detail ?? undefined,
          }),
  );

  /** Audit rows matching `q`, newest first. */
  async audit(query: AuditQuery = {}): Promise<AuditRow[]> {
    return auditRows(this.q, query, 'newest');
  }

  /**
   * Audit rows matching `q`, oldest first. The API hands out a synchronous iterator, so the rows
   * (at most `q.limit`) are read before it is returned: a whole export goes through streamAudit
   * (../audit-export.ts), which reads a keyset page at a time.
   */
  async exportAudit(query: AuditQuery = {}): Promise<Generator<AuditRow, void, undefined>> {
    const found = await auditRows(this.q, query, 'oldest');
    return (function* () {
      yield* found;
    })();
  }

  /** Appends one `session` row with the session's token counts. */
  async recordSession(event: SessionEvent): Promise<void> {
    const { tokensSent, tokensListing } = event;
    if (![tokensSent, tokensListing].every((n) => Number.isInteger(n) && n >= 0)) {
      throw new CarteError(
        'bad_input',
        `session token counts must be whole numbers of at least 0, not ${tokensSent} and ${tokensListing}`,
      );
    }
    await changes(
      this.q,
      `INSERT INTO activity (at, kind, outcome, duration_ms, tokens_sent, tokens_listing, project)
       VALUES ($1, 'session', 'ok', $2, $3, $4, $5)`,
      [event.at ?? Date.now(), roundMs(event.durationMs), tokensSent, tokensListing, event.project ?? null],
      'carte_activity_session',
    );
    await this.counted();
  }

  /** Sessions ended in the range and their token sums. */
  async sessionStats(range: ActivityRange = {}): Promise<SessionStats> {
    return sessionStats(this.q, range);
  }

  /** Calls, errors, median duration and last use of every tool called in the range, most called first. */
  async usageByTool(range: ActivityRange = {}): Promise<ToolUsage[]> {
    return usageByTool(this.q, range);
  }

  /** Finished calls per `bucketMs` since `since`, oldest first; empty buckets left out. */
  async callSeries(range: ActivityRange & { since: number; bucketMs: number }): Promise<CallBucket[]> {
    return callSeries(this.q, range);
  }

  /** Each server's calls, errors and p50/p95 durations in the range, most called first. */
  async usageByServer(range: ActivityRange = {}): Promise<ServerUsage[]> {
    return usageByServer(this.q, range);
  }

  /** Each tool's recency-weighted calls (see ActivityRepo.hotScores). */
  async hotScores(
    opts: { now?: number; halfLifeDays?: number; limit?: number; project?: string } = {},
  ): Promise<HotScore[]> {
    return hotScores(this.q, opts);
  }

  /** Deletes every row older than `olderThan` (epoch ms); returns how many. */
  async prune(olderThan: number): Promise<number> {
    return changes(this.q, 'DELETE FROM activity WHERE at < $1', [olderThan]);
  }

  /**
   * Applies the retention options, at most PRUNE_BATCH rows per rule, as ActivityRepo does. It
   * reads first (three index lookups), so a store with nothing to prune is not written.
   */
  async pruneExpired(now: number = Date.now()): Promise<number> {
    const cutoff = now - this.options.retentionDays * DAY_MS;
    const sql =
      'SELECT (SELECT min(at) FROM activity), (SELECT min(id) FROM activity), (SELECT max(id) FROM activity)';
    const [oldest, minId, maxId] = (await rawRows(this.q, sql))[0] as [number | null, number, number];
    if (oldest === null) return 0;
    let deleted = 0;
    if (oldest < cutoff) {
      const expired = `DELETE FROM activity WHERE id IN
                         (SELECT id FROM activity WHERE at < $1 ORDER BY at LIMIT ${PRUNE_BATCH})`;
      deleted += await changes(this.q, expired, [cutoff]);
    }
    // By id, as SQLite: ids are handed out in order, so the oldest ids are the rows over the cap.
    const firstKept = Math.min(maxId - this.options.maxRows + 1, minId + PRUNE_BATCH);
    if (firstKept > minId)
      deleted += await changes(this.q, 'DELETE FROM activity WHERE id < $1', [firstKept]);
    return deleted;
  }

  /** Rows in the table (all kinds). */
  async count(): Promise<number> {
    return (await row<{ n: number }>(this.q, 'SELECT count(*) AS n FROM activity'))!.n;
  }

  private async write(e: StartedEvent, outcome: string, durationMs: number, resultBytes: number | undefined) {
    return this.insert(eventValues(e, outcome, durationMs, resultBytes));
  }

  private async insert(values: unknown[]): Promise<number> {
    const inserted = await row<{ id: number }>(this.q, INSERT.text, values, INSERT.name);
    await this.counted();
    return inserted!.id;
  }

  private async counted(): Promise<void> {
    if (++this.counter.writes % PRUNE_EVERY === 0) await this.pruneExpired();
  }
}
