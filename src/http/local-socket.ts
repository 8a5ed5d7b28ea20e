// The data dir's unix socket (docs/operations.md, "One Carte for every stdio session"): the same
// app as the TCP port, for `carte serve` on stdio to relay its session to. Only this user can open
// it (mode 0600, set through the umask before the socket file exists), so a request on it acts as
// the local operator (auth.ts); the connections its server accepts are remembered here, and only
// they are trusted: a TCP request never is, whatever its headers say.
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { HttpApp } from './app.js';

export interface LocalSocketHandle {
  path: string;
  stop(): Promise<void>;
}

/** Why the socket is not served, for the operator's log. */
export interface LocalSocketRefusal {
  refused: string;
}

/**
 * Serves the app on a unix socket at `path`, removing a stale socket file first (one nothing
 * answers on). Another live Carte on it, or a path that is not a socket, is a refusal, not an error:
 * the TCP port still serves.
 */
export async function listenLocal(
  app: HttpApp,
  path: string,
): Promise<LocalSocketHandle | LocalSocketRefusal> {
  const stale = await clearStale(path);
  if (stale !== undefined) return { refused: stale };
  const toApp = getRequestListener(app.fetch, { hostname: 'localhost' });
  const server = createServer((req, res) => {
    if (!app.lane.take(req, res)) void toApp(req, res);
  });
  server.on('connection', (socket) => app.local.add(socket));
  try {
    await bind(server, path);
  } catch (err) {
    return { refused: `cannot listen on ${path}: ${(err as Error).message}` };
  }
  return { path, stop: () => stop(server) };
}

/** Stops accepting, lets requests in flight end (the app's stop ends the MCP streams), then drops the rest. */
async function stop(server: Server, graceMs = 2000): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
}

/** Binds with umask 0177, so the socket file is 0600 from its first moment (then chmod, to be sure). */
function bind(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const umask = process.umask(0o177);
    try {
      // For a path, node binds synchronously inside listen(): the umask covers the socket file.
      server.listen(path, () => {
        server.off('error', reject);
        try {
          chmodSync(path, 0o600);
          resolve();
        } catch (err) {
          server.close();
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    } finally {
      process.umask(umask);
    }
  });
}

/** Removes a socket file nothing answers on; says why not when something does, or it is no socket. */
async function clearStale(path: string): Promise<string | undefined> {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch {
    return undefined; // no file: nothing to clear
  }
  if (!isSocket) return `${path} exists and is not a socket; remove it to let stdio sessions relay here`;
  if (await answers(path))
    return `another Carte already serves stdio sessions on ${path}; this one serves TCP only`;
  unlinkSync(path);
  return undefined;
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
