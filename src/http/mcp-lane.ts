// The node lane (docs/history/benchmarks-history.md, "the node lane"): a POST to /mcp that an MCP
// client sends on every call is served straight on node:http, before Hono and its adapter make a web Request and
// Response of it (about 40 µs per call). It runs the same steps as the Hono route, from the same
// functions: the Origin/Host check (guard.ts), the caller (auth.ts), the body's parse and the
// endpoint's dispatch (mcp-endpoint.ts). What it is not sure it serves exactly as the route would
// (another method or path, a body without a length, a browser's request when CORS is on,
// duplicated headers, an unusual Host) it leaves to Hono, untouched.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isJsonContentType } from '@modelcontextprotocol/server';
import type { Authenticate } from './auth.js';
import { errorFor, errorResponse, type ReportBug } from './errors.js';
import { parseMcpBody, type McpEndpoint } from './mcp-endpoint.js';
import { connectionSignal, type PlainReply } from './plain-call.js';
import type { HeaderSource } from './shared/types.js';

export interface LaneOptions {
  mcp: McpEndpoint;
  /** The Origin/Host check (guard.ts): undefined when the request may proceed. */
  check: (headers: HeaderSource) => string | undefined;
  authenticate: Authenticate;
  /** CORS is on (http.allowedOrigins): requests with an Origin are left to Hono's CORS middleware. */
  cors: boolean;
  report: ReportBug;
}

/** A request listener's front. */
export interface Lane {
  /** True when it took the request; false leaves it untouched, for the app. */
  take(req: IncomingMessage, res: ServerResponse): boolean;
  /** Requests taken so far. */
  readonly taken: number;
}

/** A Host header node-server takes as it is: a name or IPv4 address and a port. */
const PLAIN_HOST = /^[a-z0-9._-]+(?::\d{1,5})?$/;
const DIGITS = /^\d+$/;

export function mcpLane(options: LaneOptions): Lane {
  const { mcp } = options;
  let taken = 0;
  const take = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'POST' || req.url !== '/mcp') return false;
    // A name sent twice is joined by a web Headers but not always by node's: leave it to Hono.
    if (req.rawHeaders.length !== 2 * Object.keys(req.headers).length) return false;
    const headers = new NodeHeaders(req.headers);
    const host = headers.get('host');
    const length = headers.get('content-length');
    if (
      host === null ||
      !PLAIN_HOST.test(host) ||
      length === null ||
      !DIGITS.test(length) ||
      Number(length) > mcp.maxBodyBytes ||
      headers.get('transfer-encoding') !== null ||
      !isJsonContentType(headers.get('content-type')) ||
      (options.cors && headers.get('origin') !== null)
    )
      return false;
    const url = `http://${host}/mcp`;
    serve(options, req, res, headers, url)
      .catch((err: unknown) => {
        if (!res.headersSent) return writeReply(res, errorFor(url, err, options.report));
        options.report(err);
        res.destroy();
      })
      .catch(() => res.destroy()); // the error answer itself could not be written: the client is gone
    taken += 1;
    return true;
  };
  return {
    take,
    get taken() {
      return taken;
    },
  };
}

async function serve(
  { mcp, check, authenticate }: LaneOptions,
  req: IncomingMessage,
  res: ServerResponse,
  headers: NodeHeaders,
  url: string,
): Promise<void> {
  const refused = check(headers);
  if (refused !== undefined) return writeReply(res, errorResponse(403, 'denied', refused));
  const who = await authenticate(headers, url, req.socket);
  if (who instanceof Response) return writeReply(res, who);
  const text = await readText(req);
  if (text === undefined) return; // the client went away mid-body
  const parsed = parseMcpBody(text);
  if (parsed instanceof Response) return writeReply(res, parsed);
  const reply = await mcp.dispatch({
    headers,
    request: () => webRequest(req, res, url, text),
    parsedBody: parsed.body,
    caller: who.caller,
    disconnected: () => connectionSignal(req.socket),
  });
  await writeReply(res, reply);
}

/** Node's headers read as a web Headers' `get` (names lower-cased; the lane refused duplicates). */
export class NodeHeaders implements HeaderSource {
  constructor(private readonly raw: IncomingHttpHeaders) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
}

/** The body as text; undefined when the client went away before its end (nothing to answer, nothing to report). */
function readText(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    );
    req.once('close', () => {
      if (!req.readableEnded) resolve(undefined);
    });
    req.once('error', () => resolve(undefined));
  });
}

/** The request as the SDK takes it, for the answers the SDK gives (its signal aborts when the client goes). */
function webRequest(req: IncomingMessage, res: ServerResponse, url: string, body: string): Request {
  const pairs: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  return new Request(url, { method: 'POST', headers: pairs, body, signal: abortOnClose(res).signal });
}

/** Aborted when the response closes before it was all written (the client went away). */
function abortOnClose(outgoing: ServerResponse): AbortController {
  const controller = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) controller.abort();
  });
  return controller;
}

/** Writes an answer: a plain reply at once, a Response's body (an SSE stream too) as it comes. */
async function writeReply(res: ServerResponse, reply: Response | PlainReply): Promise<void> {
  if (!(reply instanceof Response)) {
    res.writeHead(reply.status, reply.headers);
    res.end(reply.body);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  reply.headers.forEach((value, name) => (headers[name] = value));
  const cookies = reply.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(reply.status, headers);
  if (reply.body === null) return void res.end();
  try {
    await pipeline(Readable.fromWeb(reply.body), res);
  } catch {
    // The client went away mid-stream: the pipeline cancelled the body, which ends the SDK's stream.
  }
}
