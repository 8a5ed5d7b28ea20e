// Who is calling (docs/http.md, "Authentication"): a bearer token (Carte's own, or a JWT from the
// identity provider auth.oidc names) resolves to its project and scopes; no token means the operator's anonymous project, if one is named, else 401 with the
// challenge the MCP authorization spec asks of a resource server. Scope checks stay the gateway's.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { CarteError, ERROR_CODES } from '../errors.js';
import {
  DEFAULT_PROJECT,
  localCaller,
  resolveBearer,
  type RateLimiter,
  type AccessTokenVerifier,
  type CallerContext,
  type Gateway,
  type Store,
} from '../gateway/index.js';
import { bearerChallenge, errorResponse } from './errors.js';
import type { LocalSockets } from './shared/local-sockets.js';
import type { LoginCodes } from './login.js';
import type { HeaderSource, HttpEnv } from './shared/types.js';

export const ANONYMOUS_SCOPES: readonly string[] = Object.freeze(['search']);

export interface AuthOptions {
  gateway: Gateway;
  store: Store;
  /** The project requests without a token act in; absent: they get 401. */
  anonymousProject?: string;
  /** Tokens issued by the login link, checked before the stored ones. */
  login?: LoginCodes;
  /** The connections accepted on the data dir's unix socket (local-socket.ts): they act as the local operator. */
  local?: LocalSockets;
  /** The identity provider's JWT access tokens (auth.oidc), accepted beside Carte's own. */
  jwt?: AccessTokenVerifier;
  /** Requests per minute and the failed sign-in lockout (absent: no limits). */
  limiter?: RateLimiter;
  /** Take a client's address from the last X-Forwarded-For entry (a trusted reverse proxy's). */
  trustProxy?: boolean;
  now?: () => number;
}

/** A client's X-Request-Id is kept when it is short and printable; else Carte makes one. */
const REQUEST_ID = /^[\w.:-]{1,64}$/;

/** Resolves the caller of a request or throws `unauthorized` (never naming the token). */
export function callerResolver(
  options: AuthOptions,
): (authorization: string | undefined) => CallerContext | Promise<CallerContext> {
  const { gateway, store, login } = options;
  const now = options.now ?? Date.now;
  const projects = { has: (id: string) => gateway.projectIds().includes(id) };
  const anonymous =
    options.anonymousProject === undefined
      ? undefined
      : Object.freeze({ projectId: options.anonymousProject, scopes: ANONYMOUS_SCOPES });
  return (authorization) => {
    if (anonymous && (authorization === undefined || authorization.trim() === '')) return anonymous;
    const at = now();
    // Login tokens are asked first, by the hash resolveBearer computes anyway.
    const issued = login === undefined ? undefined : (hash: string) => login.resolveHash(hash, at);
    return resolveBearer(store, authorization, {
      now: at,
      projects,
      ...(issued ? { issued } : {}),
      ...(options.jwt ? { jwt: options.jwt } : {}),
    });
  };
}

/** Who a request is, or the 401 it gets; errors other than `unauthorized` are thrown. */
export type Authenticate = (
  headers: HeaderSource,
  url: string,
  /** The connection the request came on (node's socket); absent in `app.request()` tests. */
  socket?: object,
) => Promise<{ caller: CallerContext; requestId: string } | Response>;

/** The header a request on the unix socket names its project with (`carte serve --project`); ignored on TCP. */
export const LOCAL_PROJECT_HEADER = 'x-carte-project';

/** Resolves a request's caller (with its request id) from its headers: the middleware's and the node lane's. */
export function authenticator(options: AuthOptions): Authenticate {
  const resolve = callerResolver(options);
  const { local, gateway } = options;
  return async (headers, url, socket) => {
    const given = headers.get('x-request-id');
    const requestId = given !== null && REQUEST_ID.test(given) ? given : randomUUID();
    // Only a connection the unix socket's server accepted is in `local`: a TCP request never is.
    if (socket !== undefined && local?.has(socket)) return localOperator(gateway, headers, requestId);
    const authorization = headers.get('authorization') ?? undefined;
    const address = clientAddress(headers, socket, options.trustProxy === true);
    let caller: CallerContext;
    try {
      caller = await resolve(authorization);
    } catch (err) {
      if (!(err instanceof CarteError) || err.code !== 'unauthorized') throw err;
      const locked = await options.limiter?.failed(address);
      if (locked) return limitedResponse(url, locked);
      const challenge = bearerChallenge(url, authorization !== undefined, err.message);
      return errorResponse(401, 'unauthorized', err.message, { 'www-authenticate': challenge });
    }
    const withId = { ...caller, requestId };
    try {
      await options.limiter?.admit(withId, address);
    } catch (err) {
      if (err instanceof CarteError && err.code === 'rate_limited') return limitedResponse(url, err);
      throw err;
    }
    return { caller: withId, requestId };
  };
}

/** The client's address: the connection's, or behind a trusted proxy the last X-Forwarded-For entry. */
function clientAddress(headers: HeaderSource, socket: object | undefined, trustProxy: boolean): string {
  const forwarded = trustProxy ? headers.get('x-forwarded-for')?.split(',').pop()?.trim() : undefined;
  if (forwarded) return forwarded;
  return (socket as { remoteAddress?: string } | undefined)?.remoteAddress ?? 'unknown';
}

/**
 * 429 with Retry-After. On /mcp the body is a JSON-RPC error (rate_limited's code, the retry in
 * its data), so an MCP client reads why; elsewhere the REST error body.
 */
function limitedResponse(url: string, err: CarteError): Response {
  const retry = Number(err.details?.retryAfterSeconds ?? 60);
  const headers = { 'retry-after': String(retry) };
  if (new URL(url).pathname !== '/mcp') return errorResponse(429, 'rate_limited', err.message, headers);
  const error = {
    code: ERROR_CODES.rate_limited.jsonrpc,
    message: err.message,
    data: { code: err.code, retryAfterSeconds: retry },
  };
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error }), {
    status: 429,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The local operator in the project the request names (default: default), as `carte serve --project` on stdio. */
function localOperator(
  gateway: Gateway,
  headers: HeaderSource,
  requestId: string,
): { caller: CallerContext; requestId: string } | Response {
  const project = headers.get(LOCAL_PROJECT_HEADER) ?? DEFAULT_PROJECT;
  const ids = gateway.projectIds();
  if (!ids.includes(project))
    return errorResponse(
      400,
      'bad_input',
      `--project ${JSON.stringify(project)} is not a configured project; the projects are ${ids.join(', ')}`,
    );
  return { caller: { ...localCaller(project), requestId }, requestId };
}

/** Middleware that sets `caller` and `requestId`, or answers 401 with `WWW-Authenticate`. */
export function bearerAuth(authenticate: Authenticate): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    // @hono/node-server passes node's request as `env.incoming`; `app.request()` passes no env.
    const socket = (c.env as { incoming?: { socket?: object } } | undefined)?.incoming?.socket;
    const who = await authenticate(c.req.raw.headers, c.req.url, socket);
    if (who instanceof Response) return who;
    c.set('caller', who.caller);
    c.set('requestId', who.requestId);
    await next();
  };
}
