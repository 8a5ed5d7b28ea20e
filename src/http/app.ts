// The one HTTP app (docs/http.md): guard, probes, login, `/mcp`, the REST API, metrics and the
// web menu, mounted in that order. Auth runs on `/mcp`, `/api/v1/*` and `/metrics`; every route shares
// the Origin/Host guard and the one error mapping.
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { createOidcVerifier, RateLimiter, type Logger, type OidcOptions } from '../gateway/index.js';
import type { OidcConfig } from '../config/index.js';
import { operatorMessage } from '../errors.js';
import type { ExposureOptions } from '../mcp/index.js';
import { apiRoutes } from './api/index.js';
import { authenticator, bearerAuth } from './auth.js';
import { errorResponse, httpError, type ReportBug } from './errors.js';
import { originGuard, requestChecker } from './guard.js';
import { healthRoutes } from './health.js';
import { LocalSockets } from './shared/local-sockets.js';
import { LoginCodes, loginRoutes } from './login.js';
import { agentRequestSite } from './agent-requests.js';
import { mcpEndpoint, type McpEndpoint } from './mcp-endpoint.js';
import { mcpLane, type Lane } from './mcp-lane.js';
import { metricsRoutes } from './metrics.js';
import type { HttpDeps, HttpEnv } from './shared/types.js';
import { oauthCallbackRoutes, webRoutes } from './web.js';

export interface HttpAppOptions {
  /** The bound address, for the Host check (default 127.0.0.1). */
  host?: string;
  /** Browser origins besides Carte's own pages that may call it (config http.allowedOrigins). */
  allowedOrigins?: readonly string[];
  /** Legacy MCP session bounds (config http.maxSessions, http.sessionIdleMinutes). */
  maxSessions?: number;
  sessionIdleMs?: number;
  exposure?: ExposureOptions;
  /** Plain modern-era `call_tool` requests skip the SDK's per-request server (default true; false in the test that compares the two). */
  plainCalls?: boolean;
  /** `registration.agentRequests`: offer request_server on /mcp (only with `deps.configPath`). */
  agentRequests?: boolean;
  /** The login codes `carte serve --http` prints (absent: a login always fails). */
  login?: LoginCodes;
  /** Where unexpected errors are told; requests themselves are not logged. */
  logger?: Logger;
  /** The clock (tests move it for token and session expiry). */
  now?: () => number;
  /** `auth.oidc`: JWT access tokens from the team's identity provider, beside Carte's own tokens. */
  oidc?: OidcConfig;
  /** How those tokens' keys are cached (tests shorten the cooldown). */
  oidcOptions?: Partial<OidcOptions>;
  /** Config `http.trustProxy`: a client's address from X-Forwarded-For (the failed sign-in lockout). */
  trustProxy?: boolean;
}

/**
 * The app, with what must be closed when the server stops, and the node lane that takes the MCP
 * POSTs it can before the app sees them (listen.ts; mcp-lane.ts).
 */
export type HttpApp = Hono<HttpEnv> & {
  mcp: McpEndpoint;
  lane: Lane;
  /** The connections on the data dir's unix socket, which act as the local operator (local-socket.ts). */
  local: LocalSockets;
  close(): Promise<void>;
};

const MCP_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'last-event-id'];

/** Builds the HTTP face over one gateway. */
export function createHttpApp(deps: HttpDeps, options: HttpAppOptions = {}): HttpApp {
  const { logger } = options;
  // A bug's stack goes to the operator's log; the client only hears "internal error".
  const report: ReportBug = (err) =>
    logger?.error(
      `http: ${operatorMessage(err)}${err instanceof Error && err.stack ? `\n${err.stack}` : ''}`,
    );
  const login = options.login ?? new LoginCodes('default');
  const app = new Hono<HttpEnv>();
  const allowedOrigins = options.allowedOrigins ?? [];

  const guard = { ...opt('host', options.host), allowedOrigins };
  app.use('*', originGuard(guard));
  if (allowedOrigins.length > 0)
    app.use(
      '*',
      cors({
        origin: [...allowedOrigins],
        allowHeaders: ['authorization', 'content-type', 'x-request-id', ...MCP_HEADERS],
        exposeHeaders: ['www-authenticate', ...MCP_HEADERS],
      }),
    );
  app.route('/', healthRoutes(deps.gateway, { report, ...opt('oidc', options.oidc) }));
  app.route('/api/v1', loginRoutes(login, options.now));

  const local = new LocalSockets();
  const jwt =
    options.oidc &&
    createOidcVerifier(options.oidc, {
      ...opt('now', options.now),
      ...opt('warn', logger && ((m: string) => logger.warn(m))),
      ...options.oidcOptions,
    });
  const limiter = new RateLimiter(deps.store, {
    projectRate: (id) => deps.gateway.projectRate(id),
    ...opt('now', options.now),
    ...opt('warn', logger && ((m: string) => logger.warn(m))),
  });
  const authenticate = authenticator({
    limiter,
    ...opt('trustProxy', options.trustProxy),
    gateway: deps.gateway,
    local,
    store: deps.store,
    login,
    ...opt('jwt', jwt),
    ...opt('anonymousProject', deps.anonymousProject),
    ...opt('now', options.now),
  });
  const auth = bearerAuth(authenticate);
  const mcp = mcpEndpoint(deps.gateway, {
    ...opt('exposure', options.exposure),
    ...opt('plainCalls', options.plainCalls),
    ...opt('agentRequests', agentRequestSite(deps, options.agentRequests)),
    ...opt('maxSessions', options.maxSessions),
    ...opt('idleMs', options.sessionIdleMs),
    ...opt('now', options.now),
    onerror: (err) => logger?.debug(`mcp: ${err.message}`),
  });
  app.use('/mcp', auth);
  app.all('/mcp', (c) => mcp.handle(c));
  app.use('/api/v1/*', skipPublic(auth));
  app.route('/api/v1', apiRoutes(deps));
  // The metrics cover every project's servers: the route asks for the admin scope.
  app.use('/metrics', auth);
  app.route('/', metricsRoutes(deps, limiter));
  // A sign-in to a remote server comes back here (no bearer: the state binds the answer).
  app.route('/', oauthCallbackRoutes(deps));
  app.route('/', webRoutes(deps));

  app.notFound((c) =>
    errorResponse(404, 'not_found', `no route for ${c.req.method} ${new URL(c.req.url).pathname}`),
  );
  app.onError((err, c) => httpError(c, err, report));
  const lane = mcpLane({
    mcp,
    check: requestChecker(guard),
    authenticate,
    cors: allowedOrigins.length > 0,
    report,
  });
  return Object.assign(app, { mcp, lane, local, close: () => mcp.close() });
}

/** The OpenAPI document is public: a client reads it before it has a token. */
function skipPublic(auth: MiddlewareHandler<HttpEnv>): MiddlewareHandler<HttpEnv> {
  return (c, next) =>
    c.req.method === 'GET' && c.req.path === '/api/v1/openapi.json' ? next() : auth(c, next);
}

function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
