// Binds the app to a socket (node:http: the node lane first, then @hono/node-server's listener)
// and stops it cleanly: stop accepting, close the MCP sessions (their open streams end), then drop
// connections still open after a grace.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { CarteError } from '../errors.js';
import type { HttpApp } from './app.js';

export interface ListenOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** How long stop() waits for requests in flight before closing their connections. */
  graceMs?: number;
}

export interface HttpServerHandle {
  /** The base URL, e.g. http://127.0.0.1:7777 (an unspecified address is shown as 127.0.0.1). */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Listens on host:port; rejects with a readable error when the port is taken or the host is wrong. */
export function listenHttp(app: HttpApp, options: ListenOptions): Promise<HttpServerHandle> {
  return new Promise((resolve, reject) => {
    const toApp = getRequestListener(app.fetch, { hostname: options.host });
    // The node lane takes the MCP POSTs it can; everything else goes to the app (mcp-lane.ts).
    const server = createServer((req, res) => {
      if (!app.lane.take(req, res)) void toApp(req, res);
    });
    const onStartError = (err: NodeJS.ErrnoException) => reject(startError(err, options));
    server.once('error', onStartError);
    server.listen(options.port, options.host, () => {
      server.off('error', onStartError);
      const port = (server.address() as AddressInfo).port;
      const url = `http://${urlHost(options.host)}:${port}`;
      resolve({ url, port, stop: () => stop(server, app, options.graceMs ?? 2000) });
    });
  });
}

async function stop(server: Server, app: HttpApp, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  await app.close();
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
}

function startError(err: NodeJS.ErrnoException, { host, port }: ListenOptions): CarteError {
  const where = `${urlHost(host)}:${port}`;
  if (err.code === 'EADDRINUSE')
    return new CarteError(
      'bad_input',
      `port ${port} on ${host} is in use; pass --port with another port (0 picks a free one)`,
    );
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
    return new CarteError(
      'bad_input',
      `cannot listen on ${where}: ${JSON.stringify(host)} is not an address of this machine`,
    );
  if (err.code === 'EACCES')
    return new CarteError('bad_input', `no permission to listen on ${where}; use a port above 1023`);
  return new CarteError('internal', `cannot listen on ${where}: ${err.message}`, { cause: err });
}

/** The host as it goes in a URL: IPv6 in brackets, an unspecified address as loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
