import { CarteError } from '../../errors.js';
import type {
  ActivityEvent,
  ActivityOptions,
  FinishedCall,
  HotScore,
  SessionEvent,
  SessionStats,
  StartedEvent,
} from './activity-types.js';
import { auditSelect, toAuditRow, type AuditQuery, type AuditRow } from './audit-rows.js';
import {
  callSeries,
  rangeParams,
  usageByServer,
  usageByTool,
  DEFAULT_PROJECT_ID,
  RANGE_SQL,
  INTERRUPTED,
  STARTED,
  type ActivityRange,
  type CallBucket,
  type ServerUsage,
  type ToolUsage,
} from './activity-stats.js';
import { GroupCommit } from './group-commit.js';
import type { OwnerLease } from './leases.js';
import { prepared, type Db } from './sqlite.js';

export { INTERRUPTED, STARTED };

/** Outcomes a `finish` may overwrite, as SQL. */
export const OPEN_OUTCOMES = `'${STARTED}', '${INTERRUPTED}'`;
export type { ActivityRange, CallBucket, ServerUsage, ToolUsage };
export type {
  ActivityEvent,
  ActivityOptions,
  ActivityOutcome,
  FinishedCall,
  HotScore,
  SessionEvent,
  SessionStats,
  StartedEvent,
} from './activity-types.js';

/**
 * 90 days: at the hot list's 7-day half-life a 90-day-old call weighs 2^-12.9 (0.0001), so usage
 * older than that changes nothing but `carte tools --usage`. 200,000 rows (2,200 calls a day for
 * 90 days) is about 20 MB; the usage queries read every row, so their time grows with it: twice
 * the 100k-row times in docs/benchmarks-store.md ("Activity write") at most.
 */
export const ACTIVITY_DEFAULTS: ActivityOptions = { retentionDays: 90, maxRows: 200_000 };

/** The hot list: a call's weight halves every `halfLifeDays` (range > 0). */
export const HOT_DEFAULTS = { halfLifeDays: 7, limit: 50 } as const;

/** A periodic prune runs every this many writes and deletes at most PRUNE_BATCH rows per rule: a bounded pause. */
export const PRUNE_EVERY = 1000;
export const PRUNE_BATCH = 5000;

/** Calls older than this many half-lives weigh under 2^-20 and are not read by hotScores. */
const HOT_HORIZON_HALF_LIVES = 20;
const DAY_MS = 86_400_000;

/** The activity table: one row per gateway event, for usage statistics, the hot list and later the audit log. */
export class ActivityRepo {
  private readonly insert;
  private readonly insertSession;
  private readonly update;
  private readonly group;
  private writes = 0;
  /** Rows begun and not finished by this process. */
  private open = 0;
  /** Calls begun through beginGrouped and not finished: how many others may write this turn. */
  private grouped = 0;
  /** Rows begun through beginGrouped but not counted in `grouped` (run_code's own, kind `code`). */
  private readonly alone = new Set<number>();

  constructor(
    private readonly db: Db,
    private readonly options: ActivityOptions = ACTIVITY_DEFAULTS,
    private readonly lease?: OwnerLease,
  ) {
    checkOptions(options);
    this.insert = prepared(
      db,
      `INSERT INTO activity (at, kind, key, server, outcome, duration_ms, result_bytes,
                             request_id, token_id, project, args_digest, args, detail, subject, client,
                             parent_id, owner)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.update = prepared(
      db,
      `UPDATE activity SET outcome = ?, duration_ms = ?, result_bytes = ?,
         detail = coalesce(?, CASE WHEN outcome = '${INTERRUPTED}' THEN NULL ELSE detail END)
       WHERE id = ? AND outcome IN (${OPEN_OUTCOMES})`,
    );
    this.insertSession = prepared(
      db,
      `INSERT INTO activity (at, kind, outcome, duration_ms, tokens_sent, tokens_listing, project)
       VALUES (?, 'session', 'ok', ?, ?, ?, ?)`,
    );
    this.group = new GroupCommit(db);
  }

  /** Appends one event (one prepared INSERT); every PRUNE_EVERY writes, prunes a bounded batch. */
  record(event: ActivityEvent): void {
    this.write(event, event.outcome, event.durationMs, event.resultBytes);
  }

  /**
   * Appends a call's row with outcome `started` before the call runs, and returns its id for
   * `finish`. Committed when it returns (autocommit), so it survives the process being killed.
   * The row names this process's lease (taken on the first call), so a later start can tell
   * whether the call is still in flight or its process died (leases.ts).
   */
  begin(event: StartedEvent): number {
    this.lease?.ensure();
    const id = this.write({ ...event, owner: this.lease?.owner }, STARTED, 0, undefined);
    this.open++;
    return id;
  }

  /** Calls begun here and not finished (the store keeps its lease on close while any are). */
  inFlight(): number {
    return this.open;
  }

  /**
   * Sets a begun row's outcome, duration and result size (one UPDATE by id); false when no such
   * row is left. A row another start took for dead (`interrupted`) is finished too: the call ended.
   */
  finish(id: number, end: FinishedCall): boolean {
    this.open = Math.max(0, this.open - 1);
    const changes = this.update.run(
      end.outcome,
      roundMs(end.durationMs),
      end.resultBytes ?? null,
      end.detail ?? null,
      id,
    ).changes;
    return changes === 1;
  }

  /**
   * `begin` in a group commit (group-commit.ts) with the other writes asked for in this turn of the
   * event loop: resolves with the row's id once the row is committed. With no other grouped call
   * in flight the write is taken to be alone and waits for no turn.
   */
  beginGrouped(event: StartedEvent): Promise<number> {
    this.lease?.ensure(); // outside the group's transaction: a rolled-back group must not lose it
    // A run_code row stays open while its script's calls run one after another, and writes
    // nothing meanwhile: it is no company for them, and counted it cost each of them two turns
    // of the event loop (issue 43: 0.3 ms of CPU per inner call on the shared machine).
    if (event.kind === 'code') {
      const id = this.group.add(() => this.begin(event), 'task');
      void id.then(
        (n) => this.alone.add(n),
        () => undefined,
      );
      return id;
    }
    const wait = this.grouped++ > 0 ? 'turn' : 'task';
    const id = this.group.add(() => this.begin(event), wait);
    id.catch(() => this.grouped--); // a call whose row failed never finishes
    return id;
  }

  /** `finish` in a group commit: resolves once the outcome is committed. */
  finishGrouped(id: number, end: FinishedCall): Promise<boolean> {
    const wait = this.alone.delete(id) ? 'task' : --this.grouped > 0 ? 'turn' : 'task';
    return this.group.add(() => this.finish(id, end), wait);
  }

  /** Commits the grouped writes queued now (before the store closes). */
  flush(): void {
    this.group.flush();
  }

  /** Audit rows matching `q`, newest first (the time index, no sort). */
  audit(q: AuditQuery = {}): AuditRow[] {
    const { sql, params } = auditSelect(q, 'newest');
    return prepared(this.db, sql)
      .raw()
      .all(params)
      .map((r) => toAuditRow(r as unknown[]));
  }

  /**
   * Audit rows matching `q`, oldest first, one at a time (for JSONL export: memory stays flat).
   * The read sees one snapshot; writers are not blocked (WAL). Finish or `return()` the iterator
   * before using the store for anything else on this connection.
   */
  *exportAudit(q: AuditQuery = {}): Generator<AuditRow, void, undefined> {
    const { sql, params } = auditSelect(q, 'oldest');
    for (const r of prepared(this.db, sql).raw().iterate(params)) yield toAuditRow(r as unknown[]);
  }

  private write(
    e: StartedEvent,
    outcome: string,
    durationMs: number,
    resultBytes: number | undefined,
  ): number {
    const { lastInsertRowid } = this.insert.run(...eventValues(e, outcome, durationMs, resultBytes));
    if (++this.writes % PRUNE_EVERY === 0) this.pruneExpired();
    return Number(lastInsertRowid);
  }

  /** Appends one `session` row (no key or server, outcome `ok`) with the session's token counts. */
  recordSession(event: SessionEvent): void {
    const { tokensSent, tokensListing } = event;
    if (![tokensSent, tokensListing].every((n) => Number.isInteger(n) && n >= 0)) {
      throw new CarteError(
        'bad_input',
        `session token counts must be whole numbers of at least 0, not ${tokensSent} and ${tokensListing}`,
      );
    }
    this.insertSession.run(
      event.at ?? Date.now(),
      roundMs(event.durationMs),
      event.tokensSent,
      event.tokensListing,
      event.project ?? null,
    );
    if (++this.writes % PRUNE_EVERY === 0) this.pruneExpired();
  }

  /**
   * Sessions ended in the range (all kept ones without `since`; every project's without `project`)
   * and their token sums. With `since` the time index finds the range; without it the table is scanned.
   */
  sessionStats(range: ActivityRange = {}): SessionStats {
    const sql = `SELECT count(*) AS sessions, coalesce(sum(tokens_sent), 0) AS tokensSent,
                 coalesce(sum(tokens_listing), 0) AS tokensListing
                 FROM activity WHERE kind = 'session' AND ${RANGE_SQL}`;
    return prepared(this.db, sql).get(rangeParams(range)) as SessionStats;
  }

  /** Calls, errors, median duration and last use of every tool called in the range, most called first. */
  usageByTool(range: ActivityRange = {}): ToolUsage[] {
    return usageByTool(this.db, range);
  }

  /** Finished calls per `bucketMs` since `since` (activity-stats.ts), oldest first; empty buckets left out. */
  callSeries(q: ActivityRange & { since: number; bucketMs: number }): CallBucket[] {
    return callSeries(this.db, q);
  }

  /** Each server's calls, errors and p50/p95 durations in the range, most called first. */
  usageByServer(range: ActivityRange = {}): ServerUsage[] {
    return usageByServer(this.db, range);
  }

  /**
   * Each tool's calls that reached it (`ok` or `tool_error`) weighted by 2^-(age / half-life): a
   * call now counts 1, one a half-life ago 0.5. Highest first, at most `limit`; only `project`'s
   * calls when it is given (one project's usage never shows in another's hot list or ranking).
   */
  hotScores(
    opts: { now?: number; halfLifeDays?: number; limit?: number; project?: string } = {},
  ): HotScore[] {
    const now = opts.now ?? Date.now();
    const halfLifeDays = opts.halfLifeDays ?? HOT_DEFAULTS.halfLifeDays;
    const limit = opts.limit ?? HOT_DEFAULTS.limit;
    if (!(halfLifeDays > 0) || !Number.isInteger(limit) || limit < 1) {
      throw new CarteError(
        'bad_input',
        `the hot list needs a half-life above 0 days and a whole limit of at least 1, not ${halfLifeDays} and ${limit}`,
      );
    }
    const halfLifeMs = halfLifeDays * DAY_MS;
    // A scan (`+at` keeps SQLite off the time index): at the default half-life the horizon spans
    // the whole retention, where index lookups cost more than reading the rows. pow() is one of
    // SQLite's math functions, which better-sqlite3 compiles in.
    const sql = `SELECT key, sum(pow(2.0, (at - @now) / @halfLifeMs)) AS score FROM activity
                 WHERE kind = 'call' AND +at > @horizon AND +at <= @now AND outcome IN ('ok', 'tool_error')
                   AND (@project IS NULL OR coalesce(project, '${DEFAULT_PROJECT_ID}') = @project)
                 GROUP BY key ORDER BY score DESC, key LIMIT @limit`;
    return prepared(this.db, sql).all({
      now,
      halfLifeMs,
      horizon: now - HOT_HORIZON_HALF_LIVES * halfLifeMs,
      limit,
      project: opts.project ?? null,
    }) as HotScore[];
  }

  /** Deletes every row older than `olderThan` (epoch ms); returns how many. */
  prune(olderThan: number): number {
    return prepared(this.db, 'DELETE FROM activity WHERE at < ?').run(olderThan).changes;
  }

  /**
   * Applies the retention options: rows past `retentionDays` and rows over `maxRows` (the oldest
   * ids), at most PRUNE_BATCH of each. It reads first (three index seeks), so a store with nothing
   * to prune is not written: opening one for a read-only command takes no write lock.
   */
  pruneExpired(now: number = Date.now()): number {
    const cutoff = now - this.options.retentionDays * DAY_MS;
    const sql = `SELECT (SELECT min(at) FROM activity), (SELECT min(id) FROM activity), (SELECT max(id) FROM activity)`;
    const [oldest, minId, maxId] = prepared(this.db, sql).raw().get() as [number | null, number, number];
    if (oldest === null) return 0;
    let deleted = 0;
    if (oldest < cutoff) {
      const expired = `DELETE FROM activity WHERE id IN
                         (SELECT id FROM activity WHERE at < ? ORDER BY at LIMIT ${PRUNE_BATCH})`;
      deleted += prepared(this.db, expired).run(cutoff).changes;
    }
    const firstKept = Math.min(maxId - this.options.maxRows + 1, minId + PRUNE_BATCH);
    if (firstKept > minId) {
      deleted += prepared(this.db, 'DELETE FROM activity WHERE id < ?').run(firstKept).changes;
    }
    return deleted;
  }

  /** Rows in the table (all kinds). */
  count(): number {
    return prepared(this.db, 'SELECT count(*) FROM activity').pluck().get() as number;
  }
}

/** µs resolution is plenty and reads well in sqlite3 (both engines round so). */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** Retention options that make sense (both engines check them at open). */
export function checkOptions(o: ActivityOptions): void {
  if (!(o.retentionDays > 0) || !Number.isInteger(o.maxRows) || o.maxRows < 1) {
    throw new CarteError(
      'bad_input',
      `activity retention needs retentionDays above 0 and a whole maxRows of at least 1, not ${o.retentionDays} and ${o.maxRows}`,
    );
  }
}

/** A row's values in the INSERT's column order (both engines' inserts, and pg's grouped one). */
export function eventValues(
  e: StartedEvent,
  outcome: string,
  durationMs: number,
  resultBytes: number | undefined,
): unknown[] {
  return [
    e.at ?? Date.now(),
    e.kind,
    e.key ?? null,
    e.server ?? null,
    outcome,
    roundMs(durationMs),
    resultBytes ?? null,
    e.requestId ?? null,
    e.tokenId ?? null,
    e.project ?? null,
    e.argsDigest ?? null,
    e.args ?? null,
    e.detail ?? null,
    e.subject ?? null,
    e.client ?? null,
    e.parentId ?? null,
    e.owner ?? null,
  ];
}
