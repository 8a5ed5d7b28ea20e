// GET /audit (admin): the newest audit rows of the caller's project (docs/security.md, "Audit
// log"). A token sees only its project's rows, as it sees only its project's tools.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { CarteError, quote } from '../../errors.js';
import { requireScope } from '../../gateway/index.js';
import type { HttpDeps, HttpEnv } from '../shared/types.js';
import { callerOf } from './context.js';
import { AUTH_ERRORS, errors, json } from './schemas.js';

/** Rows per answer without `limit` (as `carte audit`), and the most `limit` may ask for. */
export const AUDIT_LIMITS = { default: 100, max: 1000 } as const;

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

const RowSchema = z
  .object({
    id: z.number().int(),
    at: z.string(),
    kind: z.string(),
    requestId: z.string().nullable(),
    tokenId: z.string().nullable(),
    project: z.string().nullable(),
    key: z.string().nullable(),
    server: z.string().nullable(),
    outcome: z.string(),
    durationMs: z.number(),
    resultBytes: z.number().nullable(),
    argsDigest: z.string().nullable(),
    args: z.unknown().optional(),
    detail: z.string().nullable(),
    subject: z.string().nullable(),
    client: z.string().nullable(),
  })
  .openapi('AuditRow');

const audit = createRoute({
  method: 'get',
  path: '/audit',
  summary: "The caller's project's audit rows, newest first (admin)",
  request: {
    query: z.object({
      since: z.string().optional().openapi({
        description: 'A duration back from now (30m, 24h, 7d, 2w) or an ISO time',
        example: '24h',
      }),
      project: z
        .string()
        .optional()
        .openapi({ description: "The caller's own project (any other is refused)" }),
      tool: z
        .string()
        .optional()
        .openapi({ description: 'Only rows of this tool key', example: 'everything/echo' }),
      subject: z.string().optional().openapi({
        description: "Only rows of an identity provider's token with this subject (its sub claim)",
        example: 'alice@example.com',
      }),
      limit: z.coerce.number().int().min(1).max(AUDIT_LIMITS.max).optional(),
    }),
  },
  responses: {
    200: json(z.object({ rows: z.array(RowSchema) }), 'The rows'),
    ...errors(400, ...AUTH_ERRORS),
  },
});

export function registerAudit(app: OpenAPIHono<HttpEnv>, deps: HttpDeps): void {
  app.openapi(audit, async (c) => {
    const caller = callerOf(c);
    requireScope(caller, 'admin', 'reading the audit log');
    const q = c.req.valid('query');
    if (q.project !== undefined && q.project !== caller.projectId)
      throw new CarteError(
        'denied',
        `a caller of project ${quote(caller.projectId)} reads only its own audit rows, not project ${quote(q.project)}'s`,
      );
    const rows = await deps.store.activity.audit({
      project: caller.projectId,
      ...(q.since === undefined ? {} : { since: parseSince(q.since, Date.now()) }),
      ...(q.tool === undefined ? {} : { key: q.tool }),
      ...(q.subject === undefined ? {} : { subject: q.subject }),
      limit: q.limit ?? AUDIT_LIMITS.default,
    });
    return c.json({ rows }, 200);
  });
}

/** `30m`, `24h`, `7d`, `2w` back from `now`, or an ISO time; anything else names itself. */
export function parseSince(value: string, now: number): number {
  const m = /^(\d+)([mhdw])$/.exec(value.trim());
  if (m) return now - Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  const at = /^\d{4}-\d\d-\d\d/.test(value) ? Date.parse(value) : NaN;
  if (Number.isFinite(at)) return at;
  throw new CarteError(
    'bad_input',
    `since must be a duration (30m, 24h, 7d, 2w) or an ISO time, not ${quote(value)}`,
  );
}
