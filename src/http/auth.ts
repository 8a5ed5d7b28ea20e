// Who is calling (docs/http.md, "Authentication"): a bearer token resolves to its project and
// scopes; no token means the operator's anonymous project, if one is named, else 401 with the
// challenge the MCP authorization spec asks of a resource server. Scope checks stay the gateway's.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { CarteError } from '../errors.js';
import { resolveBearer, type CallerContext, type Gateway, type Store } from '../gateway/index.js';
import { bearerChallenge, errorResponse } from './errors.js';
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
    return resolveBearer(store, authorization, { now: at, projects, ...(issued ? { issued } : {}) });
  };
}

/** Who a request is, or the 401 it gets; errors other than `unauthorized` are thrown. */
export type Authenticate = (
  headers: HeaderSource,
  url: string,
) => Promise<{ caller: CallerContext; requestId: string } | Response>;

/** Resolves a request's caller (with its request id) from its headers: the middleware's and the node lane's. */
export function authenticator(options: AuthOptions): Authenticate {
  const resolve = callerResolver(options);
  return async (headers, url) => {
    const given = headers.get('x-request-id');
    const requestId = given !== null && REQUEST_ID.test(given) ? given : randomUUID();
    const authorization = headers.get('authorization') ?? undefined;
    let caller: CallerContext;
    try {
      caller = await resolve(authorization);
    } catch (err) {
      if (!(err instanceof CarteError) || err.code !== 'unauthorized') throw err;
      const challenge = bearerChallenge(url, authorization !== undefined);
      return errorResponse(401, 'unauthorized', err.message, { 'www-authenticate': challenge });
    }
    return { caller: { ...caller, requestId }, requestId };
  };
}

/** Middleware that sets `caller` and `requestId`, or answers 401 with `WWW-Authenticate`. */
export function bearerAuth(authenticate: Authenticate): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const who = await authenticate(c.req.raw.headers, c.req.url);
    if (who instanceof Response) return who;
    c.set('caller', who.caller);
    c.set('requestId', who.requestId);
    await next();
  };
}
