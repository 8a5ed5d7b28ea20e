// GET /servers: the caller's project's servers. Every caller sees what an agent sees (tool
// count, usable, why not); an admin also sees state, discovery, the last error and the sandbox. Never a
// command line, URL, path, env or header (the target stays in `carte servers`).
// POST /servers/{id}/refresh: rediscovers one server (admin). A remote server also shows its
// sign-in (`signIn`; on a per-user server the caller's own link, never another's); sign-ins.ts
// starts and ends them.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { CarteError, quote } from '../../errors.js';
import {
  requireScope,
  scopeAllows,
  signInStates,
  type CallerContext,
  type OwnLink,
  type ServerSummary,
  type UpstreamAuthStatus,
} from '../../gateway/index.js';
import type { HttpDeps, HttpEnv } from '../shared/types.js';
import { callerOf } from './context.js';
import { menu, NOT_AUDITED } from './menu.js';
import { AUTH_ERRORS, errors, json } from './schemas.js';

const OwnLinkSchema = z
  .object({
    state: z.enum(['linked', 'expired', 'not_linked', 'no_subject']).openapi({
      description:
        'linked; expired (no refresh token left); not_linked; no_subject (the caller is not signed in to Carte through the identity provider, e.g. a Carte token, so has no account to link)',
    }),
    scope: z.string().nullable().openapi({ description: "The scopes granted to the caller's link" }),
    expiresAt: z
      .string()
      .nullable()
      .openapi({ description: "When the caller's access token expires (ISO 8601)" }),
    refreshable: z.boolean(),
  })
  .openapi('OwnLink', {
    description:
      "The caller's own link to a per-user server (POST /servers/{id}/sign-in links it); never a token, never another person's",
  });

const SignInSchema = z
  .object({
    state: z.enum(['signed_in', 'expired', 'needs_sign_in', 'not_needed', 'per_user']).openapi({
      description:
        'signed_in; expired (no refresh token left); needs_sign_in (it answered 401); not_needed (so far); per_user (each caller links their own account: `oauth.identity: per-user`)',
    }),
    scope: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'The granted scopes (this and below: admin only)' }),
    expiresAt: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'When the access token expires (ISO 8601)' }),
    refreshable: z.boolean().optional().openapi({ description: 'Whether a refresh token is held' }),
    linked: z.number().int().optional().openapi({
      description: 'per_user, admin only: how many people have linked their account (never whose)',
    }),
    you: OwnLinkSchema.optional().openapi({ description: "per_user only: the caller's own link" }),
  })
  .openapi('SignIn', { description: "A remote server's sign-in (docs/upstream-auth.md); never a token" });

const ServerSchema = z
  .object({
    id: z.string(),
    description: z.string().optional(),
    toolCount: z.number().int().openapi({ description: 'Tools of it this project sees' }),
    usable: z.boolean(),
    reason: z.string().optional(),
    enabled: z.boolean().optional().openapi({ description: 'This and below: admin only' }),
    status: z
      .string()
      .optional()
      .openapi({ description: 'Discovery: never, success, failed, needs_sign_in, disabled' }),
    state: z.string().optional().openapi({
      description: 'configured, cached, starting, ready, degraded, failed, needs_sign_in, stopped',
    }),
    connected: z.boolean().optional(),
    activeCalls: z.number().int().optional(),
    queuedCalls: z.number().int().optional(),
    lastDiscovery: z.string().nullable().optional(),
    lastError: z.string().nullable().optional(),
    signIn: SignInSchema.optional().openapi({ description: 'A remote server only' }),
    sandbox: z
      .object({
        network: z.array(z.string()).openapi({ description: 'Hosts it may reach; empty: no network' }),
        memoryMb: z.number().int().optional(),
        maxProcesses: z.number().int().optional(),
      })
      .nullable()
      .optional()
      .openapi({
        description:
          'How a stdio server is confined (docs/sandbox.md): its network grant and limits; null when it runs unsandboxed; absent for a remote server',
      }),
  })
  .openapi('Server');

const list = createRoute({
  method: 'get',
  path: '/servers',
  summary: "The project's servers: health for everyone, state and last error for admins",
  responses: {
    200: json(z.object({ servers: z.array(ServerSchema) }), 'The servers'),
    ...errors(...AUTH_ERRORS),
  },
});

const SyncSchema = z
  .object({
    server: z.string(),
    status: z.enum(['success', 'failed', 'needs_sign_in']),
    toolCount: z.number().int(),
    added: z.number().int(),
    changed: z.number().int(),
    removed: z.number().int(),
    durationMs: z.number(),
    error: z.string().optional(),
    warnings: z.array(z.string()),
  })
  .openapi('SyncReport');

const refresh = createRoute({
  method: 'post',
  path: '/servers/{id}/refresh',
  summary: 'Rediscover one server (admin); a failed discovery is a report, not an error',
  request: {
    params: z.object({
      id: z
        .string()
        .min(1)
        .openapi({ param: { name: 'id', in: 'path' } }),
    }),
  },
  responses: { 200: json(SyncSchema, 'How the discovery went'), ...errors(...AUTH_ERRORS, 404, 409) },
});

export function registerServers(app: OpenAPIHono<HttpEnv>, deps: HttpDeps): void {
  app.openapi(list, async (c) => {
    const caller = callerOf(c);
    const seen = menu(await deps.gateway.browseTools(caller, {}, NOT_AUDITED)).servers ?? [];
    const ops = operatorView(deps, caller);
    const signIns = await signInStates(
      deps,
      seen.map((s) => s.id),
      caller,
    );
    const servers = seen.map((s) => {
      const o = ops?.get(s.id);
      const auth = signIns.get(s.id);
      const signIn = auth === undefined ? {} : { signIn: signInView(auth.auth, o !== undefined, auth.you) };
      if (o === undefined) return { ...s, ...signIn };
      const { enabled, status, state, connected, activeCalls, queuedCalls, lastError } = o;
      const extra = { enabled, status, state, connected, activeCalls, queuedCalls, lastError };
      const sandbox = o.sandbox === undefined ? {} : { sandbox: o.sandbox };
      return { ...s, ...extra, lastDiscovery: o.lastDiscoveryAt, ...signIn, ...sandbox };
    });
    return c.json({ servers }, 200);
  });
  app.openapi(refresh, async (c) => {
    const { id } = c.req.valid('param');
    const caller = callerOf(c);
    requireScope(caller, 'admin', 'refreshing a server');
    await requireVisible(deps, caller, id);
    const [report] = await deps.gateway.sync(caller, { server: id });
    return c.json(report!, 200);
  });
}

/**
 * What a caller sees of a remote server's sign-in: its state for everyone; a shared one's scopes
 * and expiry for admins; on a per-user one, the caller's own link, and for admins how many linked.
 */
function signInView(auth: UpstreamAuthStatus, admin: boolean, you: OwnLink | undefined) {
  if (auth.state === 'per_user')
    return { state: auth.state, ...(admin ? { linked: auth.linked } : {}), ...(you ? { you } : {}) };
  if (!admin) return { state: auth.state };
  const { state, scope, expiresAt, refreshable } = auth;
  return { state, scope, expiresAt, refreshable };
}

/** Another project's server answers exactly like an unknown one (no did-you-mean for either). */
export async function requireVisible(deps: HttpDeps, caller: CallerContext, id: string): Promise<void> {
  const seen = menu(await deps.gateway.browseTools(caller, {}, NOT_AUDITED)).servers ?? [];
  if (!seen.some((s) => s.id === id)) throw new CarteError('unknown_server', `unknown server ${quote(id)}`);
}

/** The operator's summaries by id for an admin caller; undefined for the others. */
function operatorView(deps: HttpDeps, caller: CallerContext): Map<string, ServerSummary> | undefined {
  return scopeAllows(caller.scopes, 'admin')
    ? new Map(deps.gateway.listServers(caller).map((s) => [s.id, s]))
    : undefined;
}
