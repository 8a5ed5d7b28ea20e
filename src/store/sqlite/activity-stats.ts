// The activity table's reads for the web menu's charts (issue 30): calls per time bucket and each
// server's latency and error rate, over one project's rows. PostgreSQL's twins: ../pg/activity-stats.ts.
import { prepared, type Db } from './sqlite.js';

/** A time range of activity: rows at or after `since` (epoch ms), of `project` only when given. */
export interface ActivityRange {
  since?: number;
  /** Rows without a project (written before store schema 7) count as the `default` project's. */
  project?: string;
}

/** Finished calls that started in one time bucket. */
export interface CallBucket {
  /** Epoch ms of the bucket's start: a multiple of the bucket's length. */
  at: number;
  calls: number;
  /** Calls that did not end `ok`: the tool's own errors and Carte's. */
  errors: number;
}

/** One tool's calls in a time range (`carte tools --usage`). */
export interface ToolUsage {
  key: string;
  calls: number;
  /** Calls that did not end `ok`: the tool's own errors and Carte's. */
  errors: number;
  /** errors / calls, 0..1. */
  errorRate: number;
  /** Median duration of all its calls, failures included (the lower median: the ⌈n/2⌉-th smallest). */
  p50Ms: number;
  /** ISO time of the latest call. */
  lastUsedAt: string;
}

/** One server's finished calls in a time range. */
export interface ServerUsage {
  server: string;
  calls: number;
  errors: number;
  /** errors / calls, 0..1. */
  errorRate: number;
  /** Durations by nearest rank, failures included: the ⌈n/2⌉-th and first with rank/n >= 0.95. */
  p50Ms: number;
  p95Ms: number;
}

/** The outcome of a call's row between `begin` and `finish`; one left so is a call in flight. */
export const STARTED = 'started';

/**
 * The outcome of a `started` row whose process died before the call finished (a later start found
 * it: sqlite/leases.ts, pg/leases.ts); its `detail` is the ISO time of that start.
 */
export const INTERRUPTED = 'interrupted';

/** Calls that ended with a known duration: not in flight, not interrupted (usage reads only these). */
export const FINISHED_SQL = `outcome NOT IN ('${STARTED}', '${INTERRUPTED}')`;

/** Rows before projects existed (store schema 7) belong to the one project there was. */
export const DEFAULT_PROJECT_ID = 'default';

/** The WHERE clause of a range, for SQLite's named parameters @since and @project. */
export const RANGE_SQL = `(@since IS NULL OR at >= @since)
  AND (@project IS NULL OR coalesce(project, '${DEFAULT_PROJECT_ID}') = @project)`;

/** @since and @project of a range. */
export function rangeParams(r: ActivityRange): { since: number | null; project: string | null } {
  return { since: r.since ?? null, project: r.project ?? null };
}

/** Finished calls per `bucketMs` since `since`, oldest first; buckets without calls are left out. */
export function callSeries(db: Db, q: ActivityRange & { since: number; bucketMs: number }): CallBucket[] {
  // Parameters bind as REAL: the cast makes the division whole (times are positive: it floors).
  const sql = `SELECT CAST(at / @bucket AS INTEGER) * @bucket AS at, count(*) AS calls, sum(outcome <> 'ok') AS errors
               FROM activity WHERE kind = 'call' AND ${FINISHED_SQL} AND ${RANGE_SQL}
               GROUP BY 1 ORDER BY 1`;
  return prepared(db, sql).all({ ...rangeParams(q), bucket: Math.round(q.bucketMs) }) as CallBucket[];
}

/** Each server's finished calls in the range, most called first (one pass; percentiles sorted in JS). */
export function usageByServer(db: Db, q: ActivityRange = {}): ServerUsage[] {
  const sql = `SELECT server, duration_ms, outcome = 'ok' FROM activity
               WHERE kind = 'call' AND ${FINISHED_SQL} AND ${RANGE_SQL}`;
  const rows = prepared(db, sql).raw().iterate(rangeParams(q)) as IterableIterator<[string, number, number]>;
  const servers = new Map<string, { durations: number[]; errors: number }>();
  for (const [server, durationMs, ok] of rows) {
    let s = servers.get(server);
    if (!s) servers.set(server, (s = { durations: [], errors: 0 }));
    s.durations.push(durationMs);
    s.errors += 1 - ok;
  }
  return [...servers]
    .map(([server, s]) => {
      const sorted = Float64Array.from(s.durations).sort();
      const calls = sorted.length;
      return {
        server,
        calls,
        errors: s.errors,
        errorRate: s.errors / calls,
        p50Ms: nearestRank(sorted, 0.5),
        p95Ms: nearestRank(sorted, 0.95),
      };
    })
    .sort((a, b) => b.calls - a.calls || (a.server < b.server ? -1 : 1));
}

/**
 * The first value of `sorted` (ascending, not empty) whose rank / n reaches `p` (0 < p <= 1):
 * PostgreSQL's percentile_disc, so both engines answer alike.
 */
export function nearestRank(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  let rank = Math.max(1, Math.ceil(p * n));
  while (rank > 1 && (rank - 1) / n >= p) rank--; // p * n rounded up past a whole number
  while (rank < n && rank / n < p) rank++;
  return sorted[rank - 1]!;
}

// One statement, one pass: the medians are sorted in JS per tool. Measured on 100k rows, this is
// faster than SQL's window functions (row_number() OVER (PARTITION BY key ORDER BY duration_ms))
// plus a GROUP BY for the totals (docs/benchmarks-store.md, "Activity write"). With `since` the time
// index finds the range; without it the rows are scanned.
/** Each tool's finished calls in the range, most called first. */
export function usageByTool(db: Db, range: ActivityRange): ToolUsage[] {
  // A `started` row is a call in flight or one that never finished: neither a success nor a known failure.
  const sql = `SELECT key, duration_ms, outcome = 'ok', at FROM activity
               WHERE kind = 'call' AND ${FINISHED_SQL} AND ${RANGE_SQL}`;
  const rows = prepared(db, sql).raw().iterate(rangeParams(range)) as IterableIterator<
    [string, number, number, number]
  >;
  const tools = new Map<string, { durations: number[]; errors: number; last: number }>();
  for (const [key, durationMs, ok, at] of rows) {
    let t = tools.get(key);
    if (!t) tools.set(key, (t = { durations: [], errors: 0, last: at }));
    t.durations.push(durationMs);
    t.errors += 1 - ok;
    if (at > t.last) t.last = at;
  }
  return [...tools]
    .map(([key, t]) => ({
      key,
      calls: t.durations.length,
      errors: t.errors,
      errorRate: t.errors / t.durations.length,
      p50Ms: nearestRank(Float64Array.from(t.durations).sort(), 0.5),
      lastUsedAt: new Date(t.last).toISOString(),
    }))
    .sort((a, b) => b.calls - a.calls || (a.key < b.key ? -1 : 1));
}
