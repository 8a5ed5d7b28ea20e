// The activity table's reads on PostgreSQL: the hot list and the audit log (usage: activity-stats.ts), with the
// results of ActivityRepo's (../activity-repo.ts, ../audit-rows.ts).
import { CarteError } from '../../errors.js';
import { HOT_DEFAULTS, type HotScore } from '../sqlite/activity-repo.js';
import { toAuditRow, type AuditQuery, type AuditRow } from '../sqlite/audit-rows.js';
import { rawRows, rows, type Queryable } from './db.js';

const DAY_MS = 86_400_000;
/** As ActivityRepo: calls older than this many half-lives weigh under 2^-20 and are not read. */
const HOT_HORIZON_HALF_LIVES = 20;
/** Rows written before projects existed belong to the one project there was. */
const DEFAULT_PROJECT_ID = 'default';

/** Each tool's calls that reached it weighted by 2^-(age / half-life), highest first. */
export async function hotScores(
  q: Queryable,
  opts: { now?: number; halfLifeDays?: number; limit?: number; project?: string },
): Promise<HotScore[]> {
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
  const sql = `SELECT key, sum(power(2.0::float8, (at - $1::bigint)::float8 / $2::float8)) AS score FROM activity
               WHERE kind = 'call' AND at > $3::float8 AND at <= $1::bigint AND outcome IN ('ok', 'tool_error')
                 AND ($4::text IS NULL OR coalesce(project, '${DEFAULT_PROJECT_ID}') = $4::text)
               GROUP BY key ORDER BY score DESC, key LIMIT $5`;
  const horizon = now - HOT_HORIZON_HALF_LIVES * halfLifeMs;
  return rows<HotScore>(
    q,
    sql,
    [now, halfLifeMs, horizon, opts.project ?? null, limit],
    'carte_activity_hot',
  );
}

/** Audit rows matching `query`, newest or oldest first (the time index in either direction). */
export async function auditRows(
  q: Queryable,
  query: AuditQuery,
  order: 'newest' | 'oldest',
): Promise<AuditRow[]> {
  if (query.limit !== undefined && (!Number.isInteger(query.limit) || query.limit < 1)) {
    throw new CarteError(
      'bad_input',
      `the audit limit must be a whole number of at least 1, not ${query.limit}`,
    );
  }
  const where: string[] = [];
  const values: unknown[] = [];
  const add = (clause: (n: string) => string, value: unknown) => {
    values.push(value);
    where.push(clause(`$${values.length}`));
  };
  if (query.since !== undefined) add((n) => `at >= ${n}`, query.since);
  if (query.until !== undefined) add((n) => `at < ${n}`, query.until);
  if (query.project !== undefined) add((n) => `project = ${n}`, query.project);
  if (query.key !== undefined) add((n) => `key = ${n}`, query.key);
  if (query.subject !== undefined) add((n) => `subject = ${n}`, query.subject);
  if (query.kinds !== undefined) add((n) => `kind = ANY(${n}::text[])`, [...query.kinds]);
  if (query.outcome !== undefined) add((n) => `outcome = ${n}`, query.outcome);
  const dir = order === 'newest' ? 'DESC' : 'ASC';
  if (query.after !== undefined) {
    const past = order === 'newest' ? '<' : '>';
    values.push(query.after.at, query.after.id);
    where.push(`(at, id) ${past} ($${values.length - 1}::bigint, $${values.length}::bigint)`);
  }
  const sql = `SELECT id, at, kind, request_id, token_id, project, key, server, outcome, duration_ms,
                 result_bytes, args_digest, args, detail, subject, client, parent_id
               FROM activity${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
               ORDER BY at ${dir}, id ${dir}${query.limit === undefined ? '' : ` LIMIT ${query.limit}`}`;
  return (await rawRows(q, sql, values)).map(toAuditRow);
}
