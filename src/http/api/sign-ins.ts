// POST /servers/{id}/sign-in and /servers/{id}/sign-out: the web menu's Sign in and Sign out for a
// remote server (admin), and Link my account and Unlink for a per-user one (the caller's own
// account: the call scope and an identity provider's subject; docs/upstream-auth.md). Starting a
// sign-in answers the authorization URL to open; the browser comes back to the face's
// /oauth/callback, which finishes it. Never a token. The gateway decides who may (started-sign-in.ts).
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { endSignIn, requireScope, startSignIn } from '../../gateway/index.js';
import type { HttpDeps, HttpEnv } from '../shared/types.js';
import { callerOf } from './context.js';
import { AUTH_ERRORS, errors, json } from './schemas.js';
import { requireVisible } from './servers.js';

const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'notes' }),
});

const StartedSchema = z
  .object({
    server: z.string(),
    state: z.enum(['waiting', 'signed_in']).openapi({
      description:
        'waiting: open authorizationUrl in a browser, which comes back to /oauth/callback; signed_in: no person was needed (client credentials)',
    }),
    authorizationUrl: z
      .string()
      .optional()
      .openapi({ description: "The authorization server's page to open" }),
  })
  .openapi('StartedSignIn');

const EndedSchema = z
  .object({
    server: z.string(),
    forgotten: z.boolean().openapi({ description: 'Whether a sign-in was stored' }),
    revocation: z.enum(['revoked', 'not_offered', 'failed']),
    revocationError: z.string().optional(),
    status: z.string().optional().openapi({
      description: "A shared server's discovery after it, e.g. needs_sign_in (absent for a per-user unlink)",
    }),
  })
  .openapi('EndedSignIn');

const signIn = createRoute({
  method: 'post',
  path: '/servers/{id}/sign-in',
  summary:
    "Start a sign-in to a remote server for everyone (admin), or on a per-user server link the caller's own account (call scope, signed in through the identity provider); answers the authorization page's URL",
  request: { params: IdParam },
  responses: {
    200: json(StartedSchema, 'The page to open, or done'),
    ...errors(400, ...AUTH_ERRORS, 404, 502, 504),
  },
});

const signOut = createRoute({
  method: 'post',
  path: '/servers/{id}/sign-out',
  summary:
    "Forget a remote server's sign-in (admin), or on a per-user server unlink the caller's own account (call scope); revokes its tokens where offered",
  request: { params: IdParam },
  responses: { 200: json(EndedSchema, 'What was done'), ...errors(400, ...AUTH_ERRORS, 404) },
});

export function registerSignIns(app: OpenAPIHono<HttpEnv>, deps: HttpDeps): void {
  app.openapi(signIn, async (c) => {
    const { id } = c.req.valid('param');
    const caller = callerOf(c);
    requireScope(caller, 'call', 'signing in to a server');
    await requireVisible(deps, caller, id);
    // A failure after the URL was answered is the audit log's (and the callback page's) to tell.
    const started = await startSignIn(deps, caller, id, () => undefined);
    return c.json(started, 200);
  });
  app.openapi(signOut, async (c) => {
    const { id } = c.req.valid('param');
    const caller = callerOf(c);
    requireScope(caller, 'call', 'signing out of a server');
    await requireVisible(deps, caller, id);
    const { server, forgotten, revocation, status } = await endSignIn(deps, caller, id);
    const revoked =
      typeof revocation === 'string'
        ? { revocation }
        : { revocation: 'failed' as const, revocationError: revocation.failed };
    return c.json({ server, forgotten, ...revoked, ...(status ? { status } : {}) }, 200);
  });
}
