// The gateway served over MCP on stdio in this process: `carte serve --standalone` (and with no
// daemon), and a relay whose daemon went away (serve-relay.ts), on the streams it is given.
import type { Readable, Writable } from 'node:stream';
import { CarteError } from '../../../errors.js';
import { localCaller, type ApprovalSite } from '../../../gateway/index.js';
import type { App } from '../../shared/app.js';

export interface StdioSession {
  /** The streams (default this process's stdin and stdout). */
  stdin?: Readable;
  stdout?: Writable;
  /** The project to serve (already checked). */
  project: string;
  /** Called when no more input can arrive: stop, with this exit code. */
  stop: (code: number) => void;
}

/** Serves one MCP session on stdio over the app's gateway; resolves to a function that closes it. */
export async function serveStdioSession(app: App, o: StdioSession): Promise<{ close(): Promise<void> }> {
  // Loaded here so the other commands never pay for the MCP server SDK.
  const { serveMcpStdio } = await import('../../../mcp/index.js');
  const handle = serveMcpStdio(
    app.gateway,
    (err: Error) => {
      // A message over the transport's read buffer closes the connection and pauses stdin:
      // no more input can arrive, so stop rather than hang.
      if (/ReadBuffer exceeded/i.test(err.message)) {
        app.logger.error(`mcp: ${err.message}; the client connection is closed, stopping`);
        o.stop(1);
      } else app.logger.warn(`mcp: ${firstLine(err.message)}`);
    },
    {
      exposure: app.config.exposure,
      caller: localCaller(o.project),
      ...agentRequests(app),
      ...(o.stdin ? { stdin: o.stdin } : {}),
      ...(o.stdout ? { stdout: o.stdout } : {}),
    },
  );
  return { close: () => handle.close().catch(() => undefined) };
}

/** Checkpoint fsyncs would stall every request once a second: a worker thread takes them. */
export function checkpointInBackground(app: App): void {
  app.store.checkpointInBackground((err) =>
    app.logger.warn(
      `store: background checkpoints stopped (${err.message}); checkpointing on the main thread`,
    ),
  );
}

/** `registration.agentRequests`: where the fifth meta-tool's proposals go (never the bundled demo). */
function agentRequests(app: App): { agentRequests?: ApprovalSite } {
  if (!app.config.registration.agentRequests || app.source === 'demo') return {};
  const site = { gateway: app.gateway, store: app.store, configPath: app.path, env: process.env };
  return { agentRequests: { ...site, dataDir: app.dataDir } };
}

/** The project to serve, or a clear error listing the configured ones. */
export function checkProject(app: App, id: string): string {
  const ids = app.gateway.projectIds();
  if (ids.includes(id)) return id;
  throw new CarteError(
    'bad_input',
    `--project ${JSON.stringify(id)} is not a configured project; the projects are ${ids.join(', ')}`,
  );
}

/** SDK errors can carry a multi-line schema dump; one line is enough in the log. */
function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length < text.length ? `${line} …` : line;
}
