// GET /audit (admin): pages of the caller's project's audit rows, newest first (docs/security.md,
// "Audit log"); GET /audit/export: every matching row as JSON Lines, oldest first. A token sees only
// its project's rows, as it sees only its project's tools.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { CarteError, quote } from '../../errors.js';
import { auditPage, exportAudit, type AuditCursor } from '../../gateway/index.js';
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

const time = (what: string) =>
  z
    .string()
    .optional()
    .openapi({ description: `${what}: a duration back from now (30m, 24h, 7d, 2w) or an ISO time` });

/** The filters both routes take. */
const Filters = z.object({
  since: time('Rows at or after'),
  until: time('Rows before'),
  project: z.string().optional().openapi({ description: "The caller's own project (any other is refused)" }),
  tool: z
    .string()
    .optional()
    .openapi({ description: 'Only rows of this tool key', example: 'everything/echo' }),
  outcome: z.string().optional().openapi({
    description:
      'Only rows with this outcome: ok, tool_error, started (in flight), interrupted (its process died first) or an error code',
    example: 'ok',
  }),
  subject: z.string().optional().openapi({
    description: "Only rows of an identity provider's token with this subject (its sub claim)",
    example: 'alice@example.com',
  }),
});

const audit = createRoute({
  method: 'get',
  path: '/audit',
  summary: "A page of the caller's project's audit rows, newest first (admin)",
  request: {
    query: Filters.extend({
      limit: z.coerce.number().int().min(1).max(AUDIT_LIMITS.max).optional(),
      cursor: z.string().optional().openapi({ description: "The previous page's `next`" }),
    }),
  },
  responses: {
    200: json(
      z.object({
        rows: z.array(RowSchema),
        next: z.string().nullable().openapi({ description: 'The cursor of the next page; null on the last' }),
      }),
      'The rows',
    ),
    ...errors(400, ...AUTH_ERRORS),
  },
});

const exported = createRoute({
  method: 'get',
  path: '/audit/export',
  summary: "Every matching audit row of the caller's project as JSON Lines, oldest first (admin)",
  request: { query: Filters },
  responses: {
    200: {
      content: {
        'application/x-ndjson': { schema: z.string().openapi({ description: 'One AuditRow per line' }) },
      },
      description: 'The rows, one JSON object per line (as `carte audit export`)',
    },
    ...errors(400, ...AUTH_ERRORS),
  },
});

export function registerAudit(app: OpenAPIHono<HttpEnv>, deps: HttpDeps): void {
  app.openapi(audit, async (c) => {
    const q = c.req.valid('query');
    const now = Date.now();
    const page = await auditPage(deps.store, callerOf(c), {
      ...filters(q, now),
      ...(q.cursor === undefined ? {} : { after: parseCursor(q.cursor) }),
      limit: q.limit ?? AUDIT_LIMITS.default,
    });
    const next = page.next === null ? null : `${page.next.at}.${page.next.id}`;
    return c.json({ rows: page.rows, next }, 200);
  });
  app.openapi(exported, async (c) => {
    const caller = callerOf(c);
    const pages = exportAudit(deps.store, caller, filters(c.req.valid('query'), Date.now()));
    // The first page is read before answering, so a refusal is an error status, not a cut stream.
    const first = await pages.next();
    const encoder = new TextEncoder();
    const lines = (rows: readonly unknown[]) =>
      encoder.encode(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (first.done) controller.close();
        else controller.enqueue(lines(first.value));
      },
      async pull(controller) {
        if (first.done) return;
        const page = await pages.next();
        if (page.done) controller.close();
        else controller.enqueue(lines(page.value));
      },
      async cancel() {
        await pages.return(undefined);
      },
    });
    const file = `carte-audit-${caller.projectId.replace(/[^\w.-]/g, '_')}.jsonl`;
    const headers = {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="${file}"`,
    };
    // The route's typings know JSON and text answers, not a stream; the document says what this is.
    return c.body(body, 200, headers) as never;
  });
}

/** The store's query of the shared filters. */
function filters(q: z.infer<typeof Filters>, now: number) {
  return {
    ...(q.since === undefined ? {} : { since: parseSince(q.since, now) }),
    ...(q.until === undefined ? {} : { until: parseSince(q.until, now, 'until') }),
    ...(q.project === undefined ? {} : { project: q.project }),
    ...(q.tool === undefined ? {} : { key: q.tool }),
    ...(q.outcome === undefined ? {} : { outcome: q.outcome }),
    ...(q.subject === undefined ? {} : { subject: q.subject }),
  };
}

/** `<epoch ms>.<id>`, as `next` gave it. */
function parseCursor(text: string): AuditCursor {
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(text);
  if (!m)
    throw new CarteError(
      'bad_input',
      `cursor must be a "next" value from a previous page, not ${quote(text)}`,
    );
  return { at: Number(m[1]), id: Number(m[2]) };
}

/** `30m`, `24h`, `7d`, `2w` back from `now`, or an ISO time; anything else names itself. */
export function parseSince(value: string, now: number, name = 'since'): number {
  const m = /^(\d+)([mhdw])$/.exec(value.trim());
  if (m) return now - Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  const at = /^\d{4}-\d\d-\d\d/.test(value) ? Date.parse(value) : NaN;
  if (Number.isFinite(at)) return at;
  throw new CarteError(
    'bad_input',
    `${name} must be a duration (30m, 24h, 7d, 2w) or an ISO time, not ${quote(value)}`,
  );
}
