// The web menu's reads over the activity table on PostgreSQL (issue 30), with the results of
// SQLite's (../sqlite/activity-stats.ts): calls per time bucket, usage per server and per tool,
// session token sums, each over a range of one project's rows.
import {
  DEFAULT_PROJECT_ID,
  FINISHED_SQL,
  type ActivityRange,
  type CallBucket,
  type ServerUsage,
  type ToolUsage,
} from '../sqlite/activity-stats.js';
import type { SessionStats } from '../sqlite/activity-repo.js';
import { row, rows, type Queryable } from './db.js';

/** The WHERE clause of a range over parameters $1 (since) and $2 (project). */
const RANGE_SQL = `($1::bigint IS NULL OR at >= $1::bigint)
  AND ($2::text IS NULL OR coalesce(project, '${DEFAULT_PROJECT_ID}') = $2::text)`;
const FINISHED_CALLS = `kind = 'call' AND ${FINISHED_SQL} AND ${RANGE_SQL}`;

const rangeValues = (r: ActivityRange) => [r.since ?? null, r.project ?? null];

/** Finished calls per `bucketMs` since `since`, oldest first; empty buckets left out. */
export function callSeries(
  q: Queryable,
  range: ActivityRange & { since: number; bucketMs: number },
): Promise<CallBucket[]> {
  const sql = `SELECT (at / $3::bigint) * $3::bigint AS at, count(*) AS calls,
                 count(*) FILTER (WHERE outcome <> 'ok') AS errors
               FROM activity WHERE ${FINISHED_CALLS} GROUP BY 1 ORDER BY 1`;
  return rows<CallBucket>(q, sql, [...rangeValues(range), Math.round(range.bucketMs)]);
}

/** Each server's calls, errors and nearest-rank p50/p95 (percentile_disc) in the range, most called first. */
export async function usageByServer(q: Queryable, range: ActivityRange): Promise<ServerUsage[]> {
  const sql = `SELECT server, count(*) AS calls, count(*) FILTER (WHERE outcome <> 'ok') AS errors,
                 percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) AS "p50Ms",
                 percentile_disc(0.95) WITHIN GROUP (ORDER BY duration_ms) AS "p95Ms"
               FROM activity WHERE ${FINISHED_CALLS} GROUP BY server`;
  const found = await rows<Omit<ServerUsage, 'errorRate'>>(q, sql, rangeValues(range));
  return found
    .map((s) => ({ ...s, errorRate: s.errors / s.calls }))
    .sort((a, b) => b.calls - a.calls || (a.server < b.server ? -1 : 1));
}

/**
 * Per tool in one statement. percentile_disc(0.5) is the lower median SQLite's repository
 * computes in JS (the first value whose cumulative share reaches 0.5: the ⌈n/2⌉-th smallest).
 */
export async function usageByTool(q: Queryable, range: ActivityRange): Promise<ToolUsage[]> {
  const sql = `SELECT key, count(*) AS calls, count(*) FILTER (WHERE outcome <> 'ok') AS errors,
                 percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50, max(at) AS last
               FROM activity WHERE ${FINISHED_CALLS} GROUP BY key`;
  const found = await rows<{ key: string; calls: number; errors: number; p50: number; last: number }>(
    q,
    sql,
    rangeValues(range),
  );
  return found
    .map((t) => ({
      key: t.key,
      calls: t.calls,
      errors: t.errors,
      errorRate: t.errors / t.calls,
      p50Ms: t.p50,
      lastUsedAt: new Date(t.last).toISOString(),
    }))
    .sort((a, b) => b.calls - a.calls || (a.key < b.key ? -1 : 1));
}

/** Sessions ended in the range and their token sums. */
export async function sessionStats(q: Queryable, range: ActivityRange): Promise<SessionStats> {
  const sql = `SELECT count(*) AS sessions, coalesce(sum(tokens_sent), 0) AS "tokensSent",
                 coalesce(sum(tokens_listing), 0) AS "tokensListing"
               FROM activity WHERE kind = 'session' AND ${RANGE_SQL}`;
  return (await row<SessionStats>(q, sql, rangeValues(range)))!;
}
