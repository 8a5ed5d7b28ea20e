/** The HTTP face: one Hono app serving /mcp (both MCP eras), the REST API, metrics and the web menu. */
export { createHttpApp, type HttpApp, type HttpAppOptions } from './app.js';
export { listenHttp, type HttpServerHandle, type ListenOptions } from './listen.js';
export { LoginCodes, LOGIN_DEFAULTS, type LoginGrant } from './login.js';
export { ANONYMOUS_SCOPES, LOCAL_PROJECT_HEADER } from './auth.js';
export {
  listenLocal,
  type LocalSocketHandle,
  type LocalSocketRefusal,
  type RelayedSessions,
} from './local-socket.js';
export { SESSION_DEFAULTS } from './legacy-sessions.js';
export { isLoopback } from './guard.js';
export { errorResponse, httpError, type ErrorBody } from './errors.js';
export type { HttpDeps, HttpEnv } from './shared/types.js';
