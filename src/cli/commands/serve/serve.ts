import type { CAC } from 'cac';
import { DEFAULT_PROJECT, LOCAL_CALLER, localCaller, type CallerContext } from '../../../gateway/index.js';
import { existsSync } from 'node:fs';
import { CarteError } from '../../../errors.js';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveDataDir, userConfigPath } from '../../../config/index.js';
import {
  carteCommand,
  clientSnippet,
  serveCommand,
  shellCommand,
  type CommandLine,
  type SnippetInput,
} from '../../shared/snippet.js';
import { describeConfig, openApp, type App } from '../../shared/app.js';
import { count, note } from '../../shared/output.js';
import { serveUntilStopped } from '../../shared/serve-until-stopped.js';
import { serveHttp, type ServeFlags } from './serve-http.js';
import { serveRelayed } from './serve-relay.js';
import { checkpointInBackground, checkProject, serveStdioSession } from './serve-stdio.js';
import { syncWithProgress } from '../../shared/sync-progress.js';

/**
 * `carte serve`: relay to the Carte serving HTTP for this data dir if one runs; else sync what was
 * never discovered, say how to connect, then serve MCP on stdio (or HTTP).
 */
export function registerServe(cli: CAC): void {
  cli
    .command('serve', 'Serve the gateway over MCP on stdio, or over HTTP with --http')
    .option('--no-sync', 'Skip the start-up sync of servers never discovered')
    .option('--project <id>', "Serve this project's view of the catalog (default: default)")
    .option('--http', 'Serve HTTP instead of stdio: /mcp, the REST API, the web menu and /metrics')
    .option('--port <port>', 'With --http: the TCP port, 0 for a free one (default: http.port, 7777)')
    .option('--host <address>', 'With --http: the address to bind (default: http.host, 127.0.0.1)')
    .option(
      '--anonymous-project <id>',
      'With --http: the project requests without a token use (search scope)',
    )
    .option(
      '--standalone',
      'On stdio: run the gateway in this process even when a Carte serves HTTP for this data dir',
    )
    .action(async (flags: ServeFlags) => {
      refuseHttpFlagsOnStdio(flags);
      // A Carte serving HTTP for this data dir takes the session: this process then stays a relay.
      if (!flags.http && !flags.standalone && (await serveRelayed(flags))) return;
      // A serving process analyses a catalog without a snapshot in a child: it stays small and answers meanwhile.
      const app = await openApp(flags, 'info', { analyseApart: true, gateway: true });
      checkpointInBackground(app);
      const project = checkProject(app, flags.project ?? DEFAULT_PROJECT);
      const caller = localCaller(project);
      if (flags.sync !== false) await syncWithProgress(app.gateway, { onlyStale: true });
      // Hybrid search (every project's) embeds what the catalog lacks in the background; searches stay lexical meanwhile.
      void app.gateway.prepareSearches(LOCAL_CALLER).catch(() => undefined);
      if (flags.http)
        return serveHttp(app, flags, { project, stdio: stdioClient(app), token: tokenCommand(app, project) });
      printConnectHelp(app, caller);
      // Resolves when the client goes away, the connection breaks, or a signal arrives; the CLI then exits.
      await serveUntilStopped(app, flags, (shutdown) => {
        const session = serveStdioSession(app, { project, stop: shutdown });
        process.stdin.once('end', () => shutdown(0));
        process.stdin.once('close', () => shutdown(0));
        return { stop: () => session.then((s) => s.close()) };
      });
    });
}

/** `carte serve --port 8000` without `--http` would serve stdio and drop the flag: say so instead. */
function refuseHttpFlagsOnStdio(flags: ServeFlags): void {
  if (flags.http) return;
  const given = (['port', 'host', 'anonymous-project'] as const).filter(
    (f) => flags[f === 'anonymous-project' ? 'anonymousProject' : f] !== undefined,
  );
  if (given.length > 0)
    throw new CarteError(
      'bad_input',
      `--${given[0]} needs --http: carte serve without it serves MCP on stdio, which has no ${given[0] === 'anonymous-project' ? 'anonymous access' : 'address'}`,
    );
}

/**
 * This package's bin/carte.js: the nearest folder above this module that holds it, so the path is
 * right from src/ (tests), dist/cli/ and the bundle in dist/carte/ alike.
 */
function carteBin(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const bin = join(dir, 'bin', 'carte.js');
    if (existsSync(bin)) return bin;
    if (dirname(dir) === dir)
      throw new CarteError('internal', `internal error (a bug): no bin/carte.js above ${start}`);
  }
}

/** The `mcpServers` entry that starts this Carte over stdio, and how to run the CLI. */
export function stdioClient(app: Pick<App, 'path' | 'source' | 'dataDir'>): {
  snippet: ReturnType<typeof clientSnippet>;
  carte: string;
} {
  const snippet = clientSnippet(snippetInput(app));
  return { snippet, carte: shellCommand(snippet.mcpServers.carte) };
}

/** `carte token create` for `project` on the catalog and data dir the client entry for `app` reaches (the start message). */
function tokenCommand(app: Pick<App, 'path' | 'source' | 'dataDir'>, project: string): CommandLine {
  return carteCommand(snippetInput(app), ['token', 'create', '--project', project, '--scope', 'call']);
}

/** `carte serve --http` on the catalog and data dir the client entry for `app` reaches (`carte service`). */
export function daemonCommand(app: Pick<App, 'path' | 'source' | 'dataDir'>): CommandLine {
  return serveCommand(snippetInput(app), 'http');
}

function snippetInput(app: Pick<App, 'path' | 'source' | 'dataDir'>): SnippetInput {
  // What a client started with no CARTE_* or XDG_* variables finds on its own.
  const bare = { env: {}, platform: process.platform, home: homedir() };
  return {
    execPath: process.execPath,
    bin: carteBin(),
    configPath: app.path,
    configSource: app.source,
    defaultUserConfig: userConfigPath(bare),
    dataDir: app.dataDir,
    defaultDataDir: resolveDataDir(bare),
    cwd: process.cwd(),
  };
}

/** The demo's echo tool, the first call a newcomer tries. */
const DEMO_ECHO = 'everything/echo';

function printConnectHelp(app: App, caller: CallerContext): void {
  const servers = app.gateway.listServers(caller);
  const tools = servers.reduce((n, s) => n + s.toolCount, 0);
  const { snippet, carte } = stdioClient(app);
  // Examples that work on this catalog: the demo's echo, else a tool the project lists.
  const keys = app.gateway.listedToolKeys(caller);
  const tryIt = keys.includes(DEMO_ECHO)
    ? [`  ${carte} search "add two numbers"`, `  ${carte} call ${DEMO_ECHO} --args '{"message":"hello"}'`]
    : [`  ${carte} search "what you need, in words"`, ...(keys[0] ? [`  ${carte} describe ${keys[0]}`] : [])];
  note(
    [
      '',
      `Carte serves ${count(tools, 'tool')} from ${count(servers.length, 'server')} (config: ${describeConfig(app)}; data: ${app.dataDir}).`,
      'Connect a client (Claude Desktop, Cursor) with this in its mcpServers config:',
      JSON.stringify(snippet, null, 2),
      'Try it from a shell:',
      ...tryIt,
      'Serving MCP on stdio now (Ctrl-C to stop).',
      '',
    ].join('\n'),
  );
}
