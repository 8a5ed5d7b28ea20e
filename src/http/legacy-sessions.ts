// 2025-era clients get real `Mcp-Session-Id` sessions (the SDK's sessionful transport, one MCP
// server per session), bounded in count and expired when idle (docs/http.md, "Sessions and
// eras"). A 404 tells a client its session is gone; the spec has it start a new one.
import { randomUUID } from 'node:crypto';
import {
  isInitializeRequest,
  WebStandardStreamableHTTPServerTransport,
  type Server,
} from '@modelcontextprotocol/server';
import type { CallerContext } from '../gateway/index.js';
import { cannotConfirm, PlainCallsInFlight, type ToolResult as Result } from '../mcp/index.js';
import { plainLegacyAnswer, plainLegacyCall, type PlainReply } from './plain-call.js';
import { SessionBacklog } from './session-backlog.js';
import type { HeaderSource, McpRequest } from './shared/types.js';

export const SESSION_DEFAULTS = {
  /** Legacy sessions open at once; a new `initialize` past it gets 503. */
  maxSessions: 1000,
  /** A session with no request for this long is closed: 30 minutes. */
  idleMs: 30 * 60_000,
};

export interface SessionOptions {
  maxSessions: number;
  idleMs: number;
  /** The clock (tests move it). */
  now?: () => number;
  onerror?: (err: Error) => void;
  /** Runs a plain `call_tool` (src/http/plain-call.ts); absent, every request goes to the SDK. */
  plainCall?: (caller: CallerContext, args: Record<string, unknown>, signal: AbortSignal) => Promise<Result>;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  /** Session-wide messages held until the client's GET stream opens (session-backlog.ts). */
  backlog: SessionBacklog;
  server: Server;
  /** Plain calls in flight, so the client's notifications/cancelled reaches them. */
  plainCalls: PlainCallsInFlight;
  /** Who opened it: a later request must come from the same token (or the same anonymous project). */
  principal: string;
  lastSeen: number;
}

/** The open legacy sessions by id. */
export class LegacySessions {
  private readonly sessions = new Map<string, Session>();
  private opening = 0;
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly factory: (caller: CallerContext) => Server,
    private readonly options: SessionOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => this.sweep(), Math.min(options.idleMs, 60_000));
    this.timer.unref();
  }

  /** Sessions open now. */
  get size(): number {
    return this.sessions.size;
  }

  /** Serves one request of a session, or opens one on `initialize`. */
  async handle({
    headers,
    request,
    parsedBody,
    caller,
    disconnected,
  }: McpRequest): Promise<Response | PlainReply> {
    const id = headers.get('mcp-session-id');
    const opts = parsedBody === undefined ? undefined : { parsedBody };
    if (id !== null) {
      const session = this.sessions.get(id);
      const now = this.now();
      if (session && now - session.lastSeen > this.options.idleMs) this.expire(id, session);
      else if (session && session.principal === principalOf(caller)) {
        session.lastSeen = now;
        const plain = this.plainOf(session, headers, parsedBody);
        if (plain) return this.servePlain(session, id, plain, caller, disconnected);
        session.plainCalls.cancel(parsedBody);
        const req = request();
        const response = await session.transport.handleRequest(req, opts);
        if (req.method === 'GET' && response.ok && isEventStream(response)) await session.backlog.flush();
        return response;
      }
      return rpcError(
        404,
        -32001,
        `unknown or expired session ${JSON.stringify(id.slice(0, 80))}; send initialize to start a new one`,
      );
    }
    // Only an initialize opens a session; anything else would build a server just to be refused.
    if (!opensSession(parsedBody))
      return rpcError(400, -32000, 'Bad Request: send initialize first, then the Mcp-Session-Id it returns');
    this.sweep();
    if (this.sessions.size + this.opening >= this.options.maxSessions)
      return rpcError(
        503,
        -32000,
        `Carte holds ${this.options.maxSessions} sessions, its limit (http.maxSessions); retry later`,
        {
          'retry-after': '5',
        },
      );
    return this.open(request(), opts, caller);
  }

  /** A plain call_tool of a client that cannot be asked to confirm (the SDK asks the others). */
  private plainOf(session: Session, headers: HeaderSource, body: unknown) {
    if (this.options.plainCall === undefined) return undefined;
    const call = plainLegacyCall(headers, body);
    if (call === undefined || session.plainCalls.has(call.id)) return undefined;
    return cannotConfirm(session.server) ? call : undefined;
  }

  private async servePlain(
    session: Session,
    sessionId: string,
    call: { id: string | number; arguments: Record<string, unknown> },
    caller: CallerContext,
    disconnected: () => AbortSignal,
  ): Promise<PlainReply> {
    const result = await session.plainCalls.run(
      call.id,
      (signal) => this.options.plainCall!(caller, call.arguments, signal),
      disconnected(),
    );
    return plainLegacyAnswer(call.id, result, sessionId);
  }

  /** Closes sessions idle for longer than idleMs. */
  sweep(): void {
    const now = this.now();
    for (const [id, s] of this.sessions) if (now - s.lastSeen > this.options.idleMs) this.expire(id, s);
  }

  /** Closes every session (server shutdown). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
  }

  private async open(request: Request, opts: { parsedBody: unknown } | undefined, caller: CallerContext) {
    this.opening += 1;
    try {
      const server = this.factory(caller);
      const transport: WebStandardStreamableHTTPServerTransport =
        new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (id) =>
            void this.sessions.set(id, {
              transport,
              backlog,
              server,
              plainCalls: new PlainCallsInFlight(),
              principal: principalOf(caller),
              lastSeen: this.now(),
            }),
          onsessionclosed: (id) => void this.sessions.delete(id),
        });
      const backlog = new SessionBacklog(transport);
      transport.onerror = this.options.onerror;
      await server.connect(transport);
      const response = await transport.handleRequest(request, opts);
      // Not an initialize (the transport answered 400): nothing to keep.
      if (transport.sessionId === undefined) await transport.close();
      return response;
    } finally {
      this.opening -= 1;
    }
  }

  private expire(id: string, session: Session): void {
    this.sessions.delete(id);
    session.plainCalls.abortAll();
    session.transport.close().catch((err: Error) => this.options.onerror?.(err));
  }
}

function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
}

function opensSession(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

/** The identity a session is bound to. */
function principalOf(caller: CallerContext): string {
  // The local operator (the unix socket) is never the same principal as an anonymous TCP caller;
  // each subject of an identity provider's tokens is its own principal.
  if (caller.tokenId !== undefined) return caller.tokenId;
  if (caller.subject !== undefined) return `oidc:${caller.subject}:${caller.projectId}`;
  return `${caller.scopes.includes('*') ? 'local' : 'anonymous'}:${caller.projectId}`;
}

/** A JSON-RPC error as the Streamable HTTP transport answers one (id null: no request to name). */
export function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
