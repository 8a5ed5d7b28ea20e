// GET /activity: the caller's project's calls over time, per server and per tool, and the tokens
// Carte saved against a full listing (issue 30; the web menu's #/activity). Any token reads its
// own project's activity and no other's, naming only the tools and servers it sees; the gateway
// computes it all.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { activityReport, ACTIVITY_RANGES, type ActivityRangeId } from '../../gateway/index.js';
import type { HttpDeps, HttpEnv } from '../shared/types.js';
import { callerOf } from './context.js';
import { AUTH_ERRORS, errors, json } from './schemas.js';

const RANGES = Object.keys(ACTIVITY_RANGES) as [ActivityRangeId, ...ActivityRangeId[]];

const UsageSchema = z
  .object({
    key: z.string(),
    calls: z.number().int(),
    errors: z.number().int(),
    errorRate: z.number(),
    p50Ms: z.number(),
    lastUsedAt: z.string(),
  })
  .openapi('ToolUsage');

const ActivitySchema = z
  .object({
    range: z.enum(RANGES),
    project: z.string(),
    since: z.string().nullable().openapi({ description: 'ISO start of the first bucket' }),
    until: z.string().openapi({ description: 'ISO end of the range (now)' }),
    bucketMs: z.number().int().openapi({ description: '60000 for hour, 3600000 for week' }),
    series: z
      .array(z.object({ at: z.number().int(), calls: z.number().int(), errors: z.number().int() }))
      .openapi({ description: 'Every bucket of the range, oldest first; `at` is its start in epoch ms' }),
    servers: z.array(
      z.object({
        server: z.string(),
        calls: z.number().int(),
        errors: z.number().int(),
        errorRate: z.number(),
        p50Ms: z.number(),
        p95Ms: z.number(),
      }),
    ),
    sessions: z.number().int(),
    tokensSent: z.number().int(),
    tokensListing: z.number().int(),
    tokensSaved: z.number().int(),
    savedRatio: z.number().nullable(),
    calls: z.number().int(),
    errors: z.number().int(),
    topTools: z.array(UsageSchema),
  })
  .openapi('Activity');

const activity = createRoute({
  method: 'get',
  path: '/activity',
  summary: "The caller's project's calls per minute (hour) or per hour (week), per server and per tool",
  request: {
    query: z.object({
      range: z.enum(RANGES).optional().openapi({ description: 'hour (default) or week', example: 'hour' }),
    }),
  },
  responses: {
    200: json(ActivitySchema, 'The activity of the range'),
    ...errors(400, ...AUTH_ERRORS),
  },
});

export function registerActivity(app: OpenAPIHono<HttpEnv>, deps: HttpDeps): void {
  app.openapi(activity, async (c) => {
    const caller = callerOf(c);
    const request = {
      range: c.req.valid('query').range ?? 'hour',
      now: Date.now(),
      visible: deps.gateway.listedToolKeys(caller),
    };
    return c.json(await activityReport(deps.store, caller, request), 200);
  });
}
