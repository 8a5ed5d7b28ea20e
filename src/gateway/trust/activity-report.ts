// What happened, for `carte stats` and the web menu's #/activity (issue 30): calls over time,
// each server's latency and error rate, tokens saved against a full listing, the top tools and
// pages of the audit log. A caller sees its own project's rows only; the faces only format.
import { CarteError, quote } from '../../errors.js';
import type {
  AuditCursor,
  AuditQuery,
  AuditRow,
  CallBucket,
  ServerUsage,
  Store,
  ToolUsage,
} from '../../store/index.js';
import { streamAudit } from '../../store/index.js';
import type { CallerContext } from '../access/context.js';
import { requireScope } from '../access/scopes.js';

/** The chart's two views: per minute over the last hour, per hour over the last 7 days. */
export const ACTIVITY_RANGES = {
  hour: { spanMs: 3_600_000, bucketMs: 60_000 },
  week: { spanMs: 7 * 86_400_000, bucketMs: 3_600_000 },
} as const;
export type ActivityRangeId = keyof typeof ACTIVITY_RANGES;

/** Tools listed under "top tools" (`carte stats` shows 5, the page 10). */
export const TOP_TOOLS = { cli: 5, web: 10 } as const;

/** Audit rows an export reads per statement: memory stays flat and SQLite's connection is never held across an await. */
export const EXPORT_PAGE = 500;

/** `carte stats --json` (field names are stable: docs/cli.md). */
export interface Stats {
  /** ISO start of the range, or null for all the activity kept (90 days by default). */
  since: string | null;
  /** Downstream sessions that ended in the range, and their token sums. */
  sessions: number;
  tokensSent: number;
  tokensListing: number;
  /** tokensListing - tokensSent: negative when Carte sent more than a full listing would have cost. */
  tokensSaved: number;
  /** tokensSaved / tokensListing, or null with no listing to compare. */
  savedRatio: number | null;
  /** Tool calls in the range, and those that did not end ok (tool errors and Carte's). */
  calls: number;
  errors: number;
  topTools: ToolUsage[];
}

/** `GET /api/v1/activity`: the stats of one range, its calls per bucket (every bucket, zeros too) and per server. */
export interface ActivityReport extends Stats {
  range: ActivityRangeId;
  project: string;
  bucketMs: number;
  /** ISO end of the range (now). */
  until: string;
  series: CallBucket[];
  servers: ServerUsage[];
}

/** Sessions, tokens saved, calls and the top tools since `since`, of one project or (the CLI) all. */
export async function readStats(
  store: Store,
  opts: { since?: number; project?: string; top?: number; visible?: readonly string[] } = {},
): Promise<Stats> {
  const range = {
    ...(opts.since === undefined ? {} : { since: opts.since }),
    ...(opts.project === undefined ? {} : { project: opts.project }),
  };
  const [s, usage, keys] = await Promise.all([
    store.activity.sessionStats(range),
    store.activity.usageByTool(range),
    opts.visible ?? store.tools.listKeys(),
  ]);
  const tokensSaved = s.tokensListing - s.tokensSent;
  const known = new Set(keys);
  return {
    since: opts.since === undefined ? null : new Date(opts.since).toISOString(),
    ...s,
    tokensSaved,
    savedRatio: s.tokensListing > 0 ? tokensSaved / s.tokensListing : null,
    calls: usage.reduce((n, u) => n + u.calls, 0),
    errors: usage.reduce((n, u) => n + u.errors, 0),
    // Calls to unknown keys count as calls and errors above, but they are not tools. A project's
    // report keeps the keys it sees: another project's key it typed must look like any unknown one.
    topTools: usage.filter((u) => known.has(u.key)).slice(0, opts.top ?? TOP_TOOLS.cli),
  };
}

/** What `activityReport` reads: the range, the time it ends, and the tool keys the caller sees. */
export interface ActivityRequest {
  range: ActivityRangeId;
  now: number;
  /** The caller's listed keys (Gateway.listedToolKeys): only their tools and servers are named. */
  visible: readonly string[];
}

/**
 * The caller's project's activity over the range up to `now`; any token may read its own
 * project's. Calls to keys it cannot see (typed by the caller, answered `unknown_tool`) count in
 * the totals and the chart but name no tool or server, whether or not another project has them.
 */
export async function activityReport(
  store: Store,
  caller: CallerContext,
  req: ActivityRequest,
): Promise<ActivityReport> {
  const { range, now, visible } = req;
  const { spanMs, bucketMs } = ACTIVITY_RANGES[range];
  const last = Math.floor(now / bucketMs) * bucketMs;
  const first = last - (spanMs / bucketMs - 1) * bucketMs;
  const project = caller.projectId;
  const [stats, found, used] = await Promise.all([
    readStats(store, { since: first, project, top: TOP_TOOLS.web, visible }),
    store.activity.callSeries({ since: first, bucketMs, project }),
    store.activity.usageByServer({ since: first, project }),
  ]);
  const own = new Set(visible.map((k) => k.slice(0, k.indexOf('/'))));
  const servers = used.filter((s) => own.has(s.server));
  const byAt = new Map(found.map((b) => [b.at, b]));
  const series: CallBucket[] = [];
  for (let at = first; at <= last; at += bucketMs) series.push(byAt.get(at) ?? { at, calls: 0, errors: 0 });
  return { ...stats, range, project, bucketMs, until: new Date(now).toISOString(), series, servers };
}

/** One page of the caller's project's audit rows, newest first, and where the next page starts (admin). */
export async function auditPage(
  store: Store,
  caller: CallerContext,
  query: AuditQuery & { limit: number },
): Promise<{ rows: AuditRow[]; next: AuditCursor | null }> {
  const q = ownAudit(caller, query, 'reading the audit log');
  const rows = await store.activity.audit({ ...q, limit: query.limit + 1 });
  const more = rows.length > query.limit;
  if (more) rows.length = query.limit;
  const end = rows.at(-1);
  return { rows, next: more && end ? { at: Date.parse(end.at), id: end.id } : null };
}

/** Every matching audit row of the caller's project, oldest first, a page at a time (admin). */
export async function* exportAudit(
  store: Store,
  caller: CallerContext,
  query: AuditQuery,
): AsyncGenerator<AuditRow[], void, undefined> {
  yield* streamAudit(store.activity, ownAudit(caller, query, 'exporting the audit log'), EXPORT_PAGE);
}

/** `query` held to the caller's project; naming another project is refused. */
function ownAudit(caller: CallerContext, query: AuditQuery, what: string): AuditQuery & { project: string } {
  requireScope(caller, 'admin', what);
  if (query.project !== undefined && query.project !== caller.projectId)
    throw new CarteError(
      'denied',
      `a caller of project ${quote(caller.projectId)} reads only its own audit rows, not project ${quote(query.project)}'s`,
    );
  return { ...query, project: caller.projectId };
}
