// GET /tokens, POST /tokens, POST /tokens/{id}/revoke (admin): the caller's project's bearer
// tokens (docs/security.md, "Tokens"). The secret is in the create answer only; another
// project's token is neither listed nor revocable (it answers as an unknown id). A create or a
// revoke, refused or not, writes an admin row to the audit log.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  createProjectTokenAudited,
  listProjectTokens,
  MAX_CALLER_ADMIN_TOKEN_DAYS,
  revokeProjectTokenAudited,
  TOKEN_SCOPES,
  type TokenInfo,
} from '../../gateway/index.js';
import type { HttpDeps, HttpEnv } from '../shared/types.js';
import { callerOf } from './context.js';
import { AUTH_ERRORS, errors, json } from './schemas.js';

const DAY_MS = 86_400_000;
/** The longest expiry the page offers; longer-lived tokens come from `carte token create`. */
const MAX_EXPIRY_DAYS = 3650;

const TokenSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    project: z.string(),
    scopes: z.array(z.string()),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    ratePerMinute: z.number().int().nullable().openapi({
      description: "Requests per minute it may make; null: its project's rate, or no limit",
    }),
    effectiveRatePerMinute: z.number().int().nullable().openapi({
      description:
        "Requests per minute that apply to it under the running config: its own, else its project's rate or http.rate; null: no limit",
    }),
  })
  .openapi('Token');

const list = createRoute({
  method: 'get',
  path: '/tokens',
  summary: "The caller's project's tokens, oldest first, never their secrets (admin)",
  responses: {
    200: json(z.object({ tokens: z.array(TokenSchema) }), 'The tokens'),
    ...errors(...AUTH_ERRORS),
  },
});

const create = createRoute({
  method: 'post',
  path: '/tokens',
  summary: "Create a token of the caller's project; the answer holds its secret, shown this once (admin)",
  request: {
    body: {
      content: {
        'application/json': {
          schema: z.object({
            name: z.string().optional(),
            scopes: z.array(z.enum(TOKEN_SCOPES)).min(1),
            expiresInDays: z
              .number()
              .int()
              .min(1)
              .max(MAX_EXPIRY_DAYS)
              .optional()
              .openapi({
                description: `Days until it expires; absent: never. An admin token must give 1 to ${MAX_CALLER_ADMIN_TOKEN_DAYS}.`,
              }),
            ratePerMinute: z.number().int().min(1).max(999_999_999).optional().openapi({
              description:
                "Requests per minute it may make over HTTP; absent: its project's rate, or no limit",
            }),
          }),
        },
      },
      required: true,
    },
  },
  responses: {
    201: json(TokenSchema.extend({ token: z.string() }), 'The token and its secret'),
    ...errors(400, ...AUTH_ERRORS),
  },
});

const revoke = createRoute({
  method: 'post',
  path: '/tokens/{id}/revoke',
  summary: "Revoke a token of the caller's project; it stops working at once (admin)",
  request: {
    params: z.object({
      id: z
        .string()
        .min(1)
        .openapi({ param: { name: 'id', in: 'path' } }),
    }),
  },
  responses: {
    200: json(z.object({ token: TokenSchema, revoked: z.boolean() }), 'Revoked now, or already'),
    ...errors(400, ...AUTH_ERRORS),
  },
});

export function registerTokens(app: OpenAPIHono<HttpEnv>, deps: HttpDeps): void {
  // Making and revoking a token are audited as admin events (docs/security.md, "Audit log").
  const site = { store: deps.store, audit: deps.gateway.audit };
  app.openapi(list, async (c) => {
    const tokens = await listProjectTokens(deps.store, callerOf(c));
    return c.json({ tokens: tokens.map((t) => shown(t, deps)) }, 200);
  });
  app.openapi(create, async (c) => {
    const body = c.req.valid('json');
    const made = await createProjectTokenAudited(
      site,
      callerOf(c),
      {
        scopes: body.scopes,
        ...(body.name === undefined || body.name === '' ? {} : { name: body.name }),
        ...(body.expiresInDays === undefined ? {} : { expiresInMs: body.expiresInDays * DAY_MS }),
        ...(body.ratePerMinute === undefined ? {} : { ratePerMinute: body.ratePerMinute }),
      },
      Date.now(),
    );
    return c.json({ ...shown(made, deps), token: made.token }, 201);
  });
  app.openapi(revoke, async (c) => {
    const r = await revokeProjectTokenAudited(site, callerOf(c), c.req.valid('param').id, Date.now());
    return c.json({ token: shown(r.token, deps), revoked: r.revoked }, 200);
  });
}

/** A token's times as ISO strings, and the rate that applies to it now. */
function shown(t: TokenInfo, deps: HttpDeps) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: t.id,
    name: t.name,
    project: t.project,
    scopes: t.scopes,
    createdAt: iso(t.createdAt)!,
    expiresAt: iso(t.expiresAt),
    lastUsedAt: iso(t.lastUsedAt),
    revokedAt: iso(t.revokedAt),
    ratePerMinute: t.ratePerMinute,
    effectiveRatePerMinute: t.ratePerMinute ?? deps.gateway.projectRate(t.project)?.perToken ?? null,
  };
}
