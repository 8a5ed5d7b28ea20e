// Who is calling (docs/http.md, "Authentication"): a bearer token resolves to its project and
// scopes; no token means the operator's anonymous project, if one is named, else 401 with the
// challenge the MCP authorization spec asks of a resource server. Scope checks stay the gateway's.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { CarteError } from '../errors.js';
import { resolveBearer, type CallerContext, type Gateway, type Store } from '../gateway/index.js';
import { bearerChallenge, errorResponse, httpError } from './errors.js';
import type { LoginCodes } from './login.js';
import type { HttpEnv } from './types.js';

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
export function callerResolver(options: AuthOptions): (authorization: string | undefined) => CallerContext {
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

/** Middleware that sets `caller` and `requestId`, or answers 401 with `WWW-Authenticate`. */
export function bearerAuth(options: AuthOptions): MiddlewareHandler<HttpEnv> {
  const resolve = callerResolver(options);
  return async (c, next) => {
    const given = c.req.header('x-request-id');
    const requestId = given !== undefined && REQUEST_ID.test(given) ? given : randomUUID();
    const authorization = c.req.header('authorization');
    let caller: CallerContext;
    try {
      caller = resolve(authorization);
    } catch (err) {
      if (!(err instanceof CarteError) || err.code !== 'unauthorized') return httpError(c, err);
      const challenge = bearerChallenge(c.req.url, authorization !== undefined);
      return errorResponse(401, 'unauthorized', err.message, { 'www-authenticate': challenge });
    }
    c.set('caller', { ...caller, requestId });
    c.set('requestId', requestId);
    await next();
  };
}
