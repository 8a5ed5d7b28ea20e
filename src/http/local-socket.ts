// The data dir's unix socket (docs/operations.md, "One Carte for every stdio session"): the same
// app as the TCP port, for `carte serve` on stdio to relay its session to. Only this user can open
// it (mode 0600, set through the umask before the socket file exists), so a request on it acts as
// the local operator (auth.ts); the connections its server accepts are remembered here, and only
// they are trusted: a TCP request never is, whatever its headers say.
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { RELAY_PATH, RELAY_PROJECT_HEADER, RELAY_UPGRADE } from '../mcp/index.js';
import type { HttpApp } from './app.js';

export interface LocalSocketHandle {
  path: string;
  stop(): Promise<void>;
}

/**
 * Relayed stdio sessions (`carte serve` on stdio, src/mcp/relay.ts): `refusal` says why a project
 * cannot be served (undefined: it can); `serve` takes the connection after its `Upgrade:
 * carte-stdio` request, now a plain byte stream of MCP lines, one per line each way.
 */
export interface RelayedSessions {
  refusal(project: string): string | undefined;
  serve(stream: Duplex, project: string): void;
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
  relayed?: RelayedSessions,
): Promise<LocalSocketHandle | LocalSocketRefusal> {
  const stale = await clearStale(path);
  if (stale !== undefined) return { refused: stale };
  const toApp = getRequestListener(app.fetch, { hostname: 'localhost' });
  const server = createServer((req, res) => {
    if (!app.lane.take(req, res)) void toApp(req, res);
  });
  server.on('connection', (socket) => app.local.add(socket));
  if (relayed)
    server.on('upgrade', (req, socket: Socket, head: Buffer) => upgrade(req, socket, head, relayed));
  try {
    await bind(server, path);
  } catch (err) {
    return { refused: `cannot listen on ${path}: ${(err as Error).message}` };
  }
  return { path, stop: () => stop(server) };
}

/** Switches a relay's connection to a stdio session, or answers why not (and closes it). */
function upgrade(
  req: { url?: string; headers: Record<string, string | string[] | undefined> },
  socket: Socket,
  head: Buffer,
  relayed: RelayedSessions,
): void {
  const refuse = (status: string, why: string): void => {
    const body = Buffer.from(why);
    socket.end(
      `HTTP/1.1 ${status}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${why}`,
    );
  };
  if (req.url !== RELAY_PATH || String(req.headers.upgrade).toLowerCase() !== RELAY_UPGRADE)
    return refuse(
      '400 Bad Request',
      `only "Upgrade: ${RELAY_UPGRADE}" on ${RELAY_PATH} switches protocols here`,
    );
  const named = req.headers[RELAY_PROJECT_HEADER];
  const project = typeof named === 'string' && named !== '' ? named : 'default';
  const refused = relayed.refusal(project);
  if (refused !== undefined) return refuse('400 Bad Request', refused);
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nupgrade: ${RELAY_UPGRADE}\r\nconnection: Upgrade\r\n\r\n`,
  );
  if (head.length > 0) socket.unshift(head);
  relayed.serve(socket, project);
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
