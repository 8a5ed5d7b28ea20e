// `carte serve --http` (docs/http.md, "Serving over HTTP"): one HTTP app on host:port, a start
// message on stderr (the menu URL with a one-time login code, the /mcp URL, client snippets),
// then serve until SIGINT/SIGTERM: close the server, then the gateway.
import { CarteError } from '../../../errors.js';
import { CallbackDesk, LOCAL_CALLER, listTokens } from '../../../gateway/index.js';
import type { Duplex } from 'node:stream';
import type { RelayedSessions } from '../../../http/index.js';
import { daemonSocketPath, describeConfig, type App, type GlobalFlags } from '../../shared/app.js';
import { checkProject, serveStdioSession } from './serve-stdio.js';
import { count, note } from '../../shared/output.js';
import { shellLine, type CommandLine } from '../../shared/snippet.js';
import { serveUntilStopped } from '../../shared/serve-until-stopped.js';

export interface ServeFlags extends GlobalFlags {
  sync?: boolean;
  project?: string;
  http?: boolean;
  port?: string | number;
  host?: string;
  anonymousProject?: string;
  standalone?: boolean;
}

interface ServeContext {
  /** The project the login link's token acts in. */
  project: string;
  /** The stdio client snippet and the CLI command, for the start message. */
  stdio: { snippet: { mcpServers: { carte: CommandLine } } };
  /** `carte token create` on this catalog and data dir. */
  token: CommandLine;
}

/** Serves HTTP until a signal; resolves once the server and the gateway are closed. */
export async function serveHttp(app: App, flags: ServeFlags, ctx: ServeContext): Promise<void> {
  const http = app.config.http;
  const host = flags.host ?? http.host;
  const port = parsePort(flags.port ?? http.port);
  const anonymousProject = flags.anonymousProject ?? http.anonymousProject;
  if (anonymousProject !== undefined) checkAnonymous(app, anonymousProject);
  // Loaded here so the other commands never pay for Hono and the MCP server SDK.
  const { createHttpApp, isLoopback, listenHttp, listenLocal, LoginCodes } =
    await import('../../../http/index.js');
  const login = new LoginCodes(ctx.project);
  const httpApp = createHttpApp(
    {
      gateway: app.gateway,
      store: app.store,
      ...(app.source === 'demo' ? {} : { configPath: app.path }),
      // Approvals reload the config: it expands ${env:NAME} and ${dataDir} as at start.
      env: process.env,
      dataDir: app.dataDir,
      ...(anonymousProject === undefined ? {} : { anonymousProject }),
    },
    {
      host,
      allowedOrigins: http.allowedOrigins,
      maxSessions: http.maxSessions,
      sessionIdleMs: http.sessionIdleMinutes * 60_000,
      exposure: app.config.exposure,
      agentRequests: app.config.registration.agentRequests,
      login,
      logger: app.logger,
      ...(app.config.auth.oidc === undefined ? {} : { oidc: app.config.auth.oidc }),
      trustProxy: http.trustProxy,
    },
  );
  const server = await listenHttp(httpApp, { host, port });
  // Sign-ins asked of an agent's client (URL elicitation) come back to this face.
  app.gateway.callbackDesk = new CallbackDesk(`${server.url}/oauth/callback`);
  // Stdio sessions for this data dir relay to this process over a socket only this user can open.
  const relayed = relayedSessions(app);
  const local =
    process.platform === 'win32'
      ? { refused: 'stdio sessions do not relay on Windows (no unix socket): each runs on its own' }
      : await listenLocal(httpApp, daemonSocketPath(app.dataDir), relayed);
  if ('refused' in local) app.logger.warn(local.refused);
  if (!isLoopback(host)) await warnExposed(app, host, anonymousProject);
  const socket = 'refused' in local ? undefined : local.path;
  printStart(app, { url: server.url, code: login.mint(), anonymousProject, ctx, socket });
  await serveUntilStopped(app, flags, () => ({
    stop: async () => {
      const http = server.stop().catch((err: Error) => app.logger.warn(`http: ${err.message}`));
      relayed.closeAll();
      await Promise.all([http, 'refused' in local ? undefined : local.stop()]);
    },
  }));
}

/**
 * Stdio sessions relayed over the data dir's socket (src/mcp/relay.ts): each served here as the
 * local operator of its project, exactly as `carte serve --standalone` would serve it on stdio.
 */
function relayedSessions(app: App): RelayedSessions & { closeAll(): void } {
  const open = new Set<Duplex>();
  return {
    refusal: (project) => {
      try {
        checkProject(app, project);
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    },
    serve: (stream, project) => {
      open.add(stream);
      // A relay that goes away resets its connection: that ends its session, never the daemon.
      stream.on('error', (err) => app.logger.debug(`relayed session: ${err.message}`));
      const session = serveStdioSession(app, {
        stdin: stream,
        stdout: stream,
        project,
        stop: () => stream.destroy(),
      });
      stream.once('close', () => {
        open.delete(stream);
        void session.then((s) => s.close());
      });
    },
    closeAll: () => {
      for (const stream of open) stream.destroy();
    },
  };
}

function parsePort(value: string | number): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (Number.isInteger(n) && n >= 0 && n <= 65_535) return n;
  throw new CarteError(
    'bad_input',
    `--port must be a whole number from 0 to 65535, not ${JSON.stringify(value)}`,
  );
}

function checkAnonymous(app: App, id: string): void {
  const ids = app.gateway.projectIds();
  if (ids.includes(id)) return;
  throw new CarteError(
    'bad_input',
    `--anonymous-project ${JSON.stringify(id)} is not a configured project; the projects are ${ids.join(', ')}`,
  );
}

/** Off loopback, anyone on the network can reach the port: say what they get. */
async function warnExposed(app: App, host: string, anonymousProject: string | undefined): Promise<void> {
  if (anonymousProject !== undefined)
    app.logger.warn(
      `listening on ${host} with anonymous access: anyone who reaches this port can search project "${anonymousProject}" without a token`,
    );
  const live = (await listTokens(app.store)).filter((t) => t.revokedAt === null);
  if (live.length === 0 && app.config.auth.oidc === undefined)
    app.logger.warn(
      `listening on ${host} and no bearer token exists yet: create one with "carte token create --project P --scope call"`,
    );
  app.logger.warn('Carte speaks plain HTTP: put it behind a TLS proxy before tokens cross a network');
}

function printStart(
  app: App,
  o: {
    url: string;
    code: string;
    anonymousProject: string | undefined;
    ctx: ServeContext;
    socket: string | undefined;
  },
): void {
  const servers = app.gateway.listServers(LOCAL_CALLER);
  const tools = servers.reduce((n, s) => n + s.toolCount, 0);
  const mcpUrl = `${o.url}/mcp`;
  const headers = o.anonymousProject === undefined ? { headers: { Authorization: 'Bearer <token>' } } : {};
  const httpSnippet = { mcpServers: { carte: { type: 'http', url: mcpUrl, ...headers } } };
  // On a database named by CARTE_DATABASE_URL the command needs it too, or the token lands in the
  // data dir's SQLite file; printed without its password, like every store URL.
  const fromEnv = app.store.engine === 'postgres' && Boolean(process.env.CARTE_DATABASE_URL);
  const tokenHint =
    o.anonymousProject === undefined
      ? ` (make a token: ${shellLine(o.ctx.token, fromEnv ? { CARTE_DATABASE_URL: app.store.path } : {})})`
      : ` (without a token it searches project "${o.anonymousProject}")`;
  note(
    [
      '',
      `Carte serves ${count(tools, 'tool')} from ${count(servers.length, 'server')} (config: ${describeConfig(app)}; data: ${app.dataDir}).`,
      `Open the menu (the link logs you in once, for 12 hours): ${o.url}/#login=${o.code}`,
      `MCP endpoint (Streamable HTTP, both protocol eras): ${mcpUrl}`,
      'Connect a client that starts Carte itself (stdio), with this in its mcpServers config:',
      JSON.stringify(o.ctx.stdio.snippet, null, 2),
      ...(o.socket === undefined
        ? []
        : [
            `(Such stdio sessions relay to this process, over ${o.socket}: one copy of each upstream for all.)`,
          ]),
      `Or connect a client over HTTP${tokenHint}:`,
      JSON.stringify(httpSnippet, null, 2),
      'Serving HTTP now (Ctrl-C to stop).',
      '',
    ].join('\n'),
  );
}
