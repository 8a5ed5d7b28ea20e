// The host side of a sandboxed server's network: an HTTP proxy on a unix socket that opens only
// granted destinations. The server's own network namespace has no route out; this is its one door.
import { lookup } from 'node:dns/promises';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import { isGranted, isLoopbackName } from './grants.js';

/** Resolves a name (a seam: tests map names offline). */
export type Resolve = (host: string) => Promise<string>;

const defaultResolve: Resolve = async (host) => (await lookup(host)).address;

/**
 * Starts the proxy on a unix socket path (Linux: bound into the sandbox) or on a port of
 * 127.0.0.1 (macOS: the profile lets the server reach that port alone; 0 picks one);
 * `denied` hears each refused destination.
 */
export async function startAllowProxy(
  grants: readonly string[],
  listenOn: string | number,
  opts: { resolve?: Resolve; denied?: (dest: string) => void } = {},
): Promise<{ close(): void; port: number | null }> {
  const resolve = opts.resolve ?? defaultResolve;
  // Only a grant that names this machine may reach it: a granted name resolving to loopback may not.
  const open = async (host: string, port: number): Promise<string | null> => {
    if (!isGranted(grants, host, port)) return null;
    const bare = host.replace(/^\[|\]$/g, '');
    const literal = isIP(bare) > 0;
    const address = literal ? bare : await resolve(host);
    const loop = address.startsWith('127.') || address === '::1';
    return loop && !literal && !isLoopbackName(host) ? null : address;
  };
  const server = createServer((req, res) => void forward(req, res, open, opts.denied));
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host, portText] = splitHostPort(req.url ?? '');
    const port = Number(portText);
    void open(host, port)
      .catch(() => null)
      .then((address) => {
        if (!address) {
          opts.denied?.(`${host}:${port}`);
          client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
          return;
        }
        const upstream = connect(port, address, () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length) upstream.write(head);
          upstream.pipe(client).pipe(upstream);
        });
        upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
        client.on('error', () => upstream.destroy());
      });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    if (typeof listenOn === 'string') server.listen(listenOn, ok);
    else server.listen(listenOn, '127.0.0.1', ok);
  });
  const address = server.address();
  return { close: () => server.close(), port: typeof address === 'object' && address ? address.port : null };
}

/** A plain-HTTP request through the proxy (`GET http://host/path`). */
async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  open: (host: string, port: number) => Promise<string | null>,
  denied?: (dest: string) => void,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    res.writeHead(400).end();
    return;
  }
  const port = Number(url.port || 80);
  const address = url.protocol === 'http:' ? await open(url.hostname, port).catch(() => null) : null;
  if (!address) {
    denied?.(`${url.hostname}:${port}`);
    res.writeHead(403).end();
    return;
  }
  const out = request(
    { host: address, port, path: `${url.pathname}${url.search}`, method: req.method, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  out.on('error', () => res.writeHead(502).end());
  req.pipe(out);
}

function splitHostPort(target: string): [string, string] {
  const i = target.lastIndexOf(':');
  return i < 0 ? [target, '443'] : [target.slice(0, i), target.slice(i + 1)];
}
