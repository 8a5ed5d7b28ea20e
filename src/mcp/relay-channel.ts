// The relay's side of the data dir's unix socket (relay.ts): JSON-RPC messages POSTed to the
// daemon's /mcp over node:http with a keep-alive agent, answers read as JSON or as an SSE stream,
// and the session's GET stream. A failure to reach the daemon is a `DaemonGone` that says whether
// the message can have reached it: a refused or missing socket means it did not.
import { Agent, request, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isObject } from './tool-call.js';

/** The header the daemon reads the project from on its unix socket (src/http/auth.ts). */
const PROJECT_HEADER = 'x-carte-project';

/** Errors that mean nothing was listening: the request never reached a daemon. */
const NOT_DELIVERED: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOENT', 'ENOTSOCK', 'EACCES']);

/** The daemon could not be reached, or went away during the exchange. */
export class DaemonGone extends Error {
  constructor(
    message: string,
    /** False when the request surely never reached the daemon (so it may be served elsewhere). */
    readonly delivered: boolean,
  ) {
    super(message);
  }
}

/** A POST's outcome once its answer is read (its messages were handed over as they came). */
export interface Answer {
  status: number;
  sessionId: string | undefined;
  /** The body of an answer that is not 2xx (an error document), else empty. */
  errorBody: string;
}

/** The daemon's /mcp over a unix socket. */
export class DaemonChannel {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });

  constructor(
    readonly socketPath: string,
    private readonly project: string,
  ) {}

  /** POSTs one message; each JSON-RPC message of the answer goes to `onMessage` as it arrives (its JSON text). */
  post(
    body: string,
    headers: Record<string, string>,
    onMessage: (text: string) => void,
    signal?: AbortSignal,
  ): Promise<Answer> {
    return this.exchange({ method: 'POST', body, headers, onMessage, signal });
  }

  /** Opens the session's GET stream (server-to-client messages outside any request). */
  listen(
    headers: Record<string, string>,
    onMessage: (text: string) => void,
    signal: AbortSignal,
  ): Promise<Answer> {
    return this.exchange({ method: 'GET', headers, onMessage, signal });
  }

  /**
   * Whether a daemon answers, and serves `project`: the caller (ok), the daemon's refusal
   * (a message: the project is unknown), or undefined when no daemon answers.
   */
  async probe(timeoutMs: number): Promise<{ ok: true } | { refused: string } | undefined> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const answer = await this.exchange({ method: 'GET', path: '/api/v1/me', headers: {}, signal });
      if (answer.status === 200) return { ok: true };
      return { refused: errorMessage(answer.errorBody) ?? `the daemon answered HTTP ${answer.status}` };
    } catch {
      return undefined;
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private exchange(o: {
    method: 'GET' | 'POST';
    path?: string;
    body?: string;
    headers: Record<string, string>;
    onMessage?: (text: string) => void;
    signal?: AbortSignal | undefined;
  }): Promise<Answer> {
    const headers: OutgoingHttpHeaders = {
      host: 'localhost',
      accept: o.method === 'POST' ? 'application/json, text/event-stream' : 'text/event-stream',
      [PROJECT_HEADER]: this.project,
      ...o.headers,
    };
    if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(o.body);
    }
    return new Promise<Answer>((resolve, reject) => {
      const req = request(
        { socketPath: this.socketPath, path: o.path ?? '/mcp', method: o.method, headers, agent: this.agent },
        (res) => void readAnswer(res, o.onMessage).then(resolve, reject),
      );
      if (o.signal) {
        const abort = () => req.destroy(new DaemonGone('aborted', true));
        if (o.signal.aborted) abort();
        o.signal.addEventListener('abort', abort, { once: true });
        req.once('close', () => o.signal?.removeEventListener('abort', abort));
      }
      req.once('error', (err: NodeJS.ErrnoException) => {
        if (err instanceof DaemonGone) return reject(err);
        const delivered = !NOT_DELIVERED.has(err.code ?? '');
        reject(new DaemonGone(`${err.code ?? 'error'}: ${err.message}`, delivered));
      });
      req.end(o.body);
    });
  }
}

/** Reads an answer: a 2xx's messages to `onMessage` (JSON or SSE); another status's body as text. */
function readAnswer(res: IncomingMessage, onMessage?: (text: string) => void): Promise<Answer> {
  const status = res.statusCode ?? 0;
  const sessionId = header(res, 'mcp-session-id');
  const type = header(res, 'content-type') ?? '';
  const sse = status < 300 && type.startsWith('text/event-stream');
  const parse = sse ? sseParser(onMessage) : undefined;
  let text = '';
  res.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    res.on('data', (chunk: string) => (parse ? parse(chunk) : (text += chunk)));
    res.once('end', () => {
      if (!sse && status < 300 && text !== '' && onMessage) onMessage(text);
      resolve({ status, sessionId, errorBody: status < 300 ? '' : text });
    });
    res.once('close', () => {
      if (!res.complete) reject(new DaemonGone('the daemon closed the answer before its end', true));
    });
    res.once('error', (err) => reject(new DaemonGone(err.message, true)));
  });
}

/** An SSE reader (the WHATWG event stream format): each event's data lines joined. */
function sseParser(onMessage?: (text: string) => void): (chunk: string) => void {
  let buffered = '';
  let data: string[] = [];
  return (chunk) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl).replace(/\r$/, '');
      buffered = buffered.slice(nl + 1);
      if (line === '') {
        if (data.length > 0 && onMessage) onMessage(data.join('\n'));
        data = [];
      } else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
  };
}

function header(res: IncomingMessage, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The `error.message` of an error document (Carte's or JSON-RPC's), if the body is one. */
export function errorMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    const error = isObject(parsed) ? parsed.error : undefined;
    return isObject(error) && typeof error.message === 'string' ? error.message : undefined;
  } catch {
    return undefined;
  }
}

/** Methods whose `Mcp-Name` header mirrors a params field (SEP-2243). */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * The 2026-07-28 headers a request carrying its own protocol version needs on HTTP
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), as the SDK's client derives them; undefined
 * for a message without that envelope (a 2025-era one).
 */
export function modernHeaders(message: Record<string, unknown>): Record<string, string> | undefined {
  const params = isObject(message.params) ? message.params : undefined;
  const meta = params && isObject(params._meta) ? params._meta : undefined;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  if (typeof version !== 'string' || typeof message.method !== 'string') return undefined;
  const headers: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': message.method };
  const field = NAME_SOURCE[message.method];
  const value = field === undefined ? undefined : params?.[field];
  if (typeof value === 'string') headers['mcp-name'] = encodeParamValue(value);
  return headers;
}

/** A header value as SEP-2243 sends it: plain printable ASCII as is, anything else base64 in a sentinel. */
function encodeParamValue(value: string): string {
  const plain = value !== '' && value === value.trim() && /^[\t\x20-\x7e]*$/.test(value);
  if (plain && !(value.startsWith('=?base64?') && value.endsWith('?='))) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
