// `/mcp`: Streamable HTTP for both protocol eras on one endpoint (docs/http.md, "Sessions and
// eras"). A 2026-07-28 request carries its own envelope and needs no session, so the SDK's
// per-request handler answers it with a fresh server for its caller; a 2025-era request goes to
// a sessionful transport kept in LegacySessions. The body is read and parsed once: here for the
// Hono route, in mcp-lane.ts for the POSTs the node lane takes; both hand it to `dispatch`.
import {
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  isJsonContentType,
  isLegacyRequest,
  readRequestBody,
  type AuthInfo,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import type { Context } from 'hono';
import type { ApprovalSite, CallerContext, Gateway } from '../gateway/index.js';
import { createMcpServer, listenMessage, plainCallTool, type ExposureOptions } from '../mcp/index.js';
import {
  disconnectSignal,
  plainAnswer,
  plainModernCall,
  surelyLegacy,
  toResponse,
  type PlainReply,
} from './plain-call.js';
import { ListenStreams } from './mcp-listen.js';
import { LegacySessions, rpcError, SESSION_DEFAULTS, type SessionOptions } from './legacy-sessions.js';
import type { HttpEnv, McpRequest } from './shared/types.js';

export interface McpEndpointOptions extends Partial<SessionOptions> {
  exposure?: ExposureOptions;
  /** `registration.agentRequests`: where request_server proposals go; absent, the tool is not listed. */
  agentRequests?: ApprovalSite;
  /** Largest POST body read, in bytes (default the SDK's, 4 MiB). */
  maxBodyBytes?: number;
  /** Answer plain modern-era `call_tool` requests without the SDK's per-request server (default true; src/http/plain-call.ts). */
  plainCalls?: boolean;
}

export interface McpEndpoint {
  /** The Hono route: reads and parses the body, then dispatches. */
  handle(c: Context<HttpEnv>): Promise<Response>;
  /** A request whose body is parsed (or that has none), routed to its era's serving. */
  dispatch(r: McpRequest): Promise<Response | PlainReply>;
  /** Largest POST body read, in bytes. */
  readonly maxBodyBytes: number;
  /** Open legacy sessions. */
  readonly sessions: LegacySessions;
  close(): Promise<void>;
}

/** The `/mcp` handler: routes each request to its era's serving. */
export function mcpEndpoint(gateway: Gateway, options: McpEndpointOptions = {}): McpEndpoint {
  const exposure = {
    ...(options.exposure === undefined ? {} : { exposure: options.exposure }),
    ...(options.agentRequests === undefined ? {} : { agentRequests: options.agentRequests }),
  };
  const serverFor = (caller: CallerContext) => createMcpServer(gateway, caller, exposure);
  const onerror = options.onerror;
  // Direct mode names tools itself; its calls keep the SDK's path.
  const plainCalls = (options.plainCalls ?? true) && options.exposure?.mode !== 'direct';
  const plainCall = (caller: CallerContext, args: Record<string, unknown>, signal: AbortSignal) =>
    plainCallTool(gateway, caller, args, signal);
  const perRequest: McpServerFactory = ({ authInfo }) =>
    createMcpServer(gateway, callerOf(authInfo), { ...exposure, perRequest: true });
  const modern = createMcpHandler(perRequest, { legacy: 'reject', ...(onerror ? { onerror } : {}) });
  const listens = new ListenStreams(gateway, perRequest, onerror);
  const sessions = new LegacySessions(serverFor, {
    maxSessions: options.maxSessions ?? SESSION_DEFAULTS.maxSessions,
    idleMs: options.idleMs ?? SESSION_DEFAULTS.idleMs,
    ...(options.now ? { now: options.now } : {}),
    ...(onerror ? { onerror } : {}),
    ...(plainCalls ? { plainCall } : {}),
  });
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE;

  const dispatch = async (r: McpRequest): Promise<Response | PlainReply> => {
    const { headers, parsedBody, caller } = r;
    if (parsedBody !== undefined && plainCalls) {
      const plain = plainModernCall(headers, parsedBody);
      if (plain !== undefined)
        return plainAnswer(plain.id, await plainCall(caller, plain.arguments, r.disconnected()));
    }
    const legacy =
      (plainCalls && surelyLegacy(headers, parsedBody)) ||
      (await isLegacyRequest(r.request(), parsedBody, { maxRequestBodySize: maxBytes }));
    if (legacy) return sessions.handle(r);
    const options = { authInfo: authInfoOf(caller), parsedBody };
    const listen = listenMessage(parsedBody);
    if (listen) return listens.serve(caller, listen, r.request(), options);
    return modern.fetch(r.request(), options);
  };

  return {
    sessions,
    dispatch,
    maxBodyBytes: maxBytes,
    async handle(c) {
      const request = c.req.raw;
      let parsedBody: unknown;
      if (request.method === 'POST') {
        if (!isJsonContentType(request.headers.get('content-type')))
          return rpcError(415, -32000, 'Unsupported Media Type: send Content-Type: application/json');
        const body = await readBody(request, maxBytes);
        if (body.tooLarge) return rpcError(413, -32000, `the request body is over ${maxBytes} bytes`);
        const parsed = parseMcpBody(body.text);
        if (parsed instanceof Response) return parsed;
        parsedBody = parsed.body;
      }
      const reply = await dispatch({
        headers: request.headers,
        request: () => request,
        parsedBody,
        caller: c.get('caller'),
        disconnected: () => disconnectSignal(c),
      });
      return toResponse(reply);
    },
    async close() {
      listens.closeAll();
      await sessions.close();
      await modern.close();
    },
  };
}

/** A POST body's JSON, or the 400 the SDK's transport gives text that is not JSON. */
export function parseMcpBody(text: string): { body: unknown } | Response {
  try {
    return { body: JSON.parse(text) };
  } catch {
    return rpcError(400, -32700, 'Parse error: the request body is not valid JSON');
  }
}

/**
 * The POST body as text, or tooLarge. With a Content-Length (every client we know sends one),
 * the HTTP parser stops at that many bytes, so `text()` is bounded; on @hono/node-server's
 * lightweight request it reads the socket directly, where the SDK's `readRequestBody` asks for
 * `request.body` and so makes the adapter build a whole undici Request, an AbortSignal and a web
 * stream over the socket (~100 µs per request, docs/benchmarks.md). A chunked body, with no
 * length up front, still goes through the SDK's reader, which counts bytes as they come.
 */
async function readBody(request: Request, maxBytes: number): ReturnType<typeof readRequestBody> {
  const length = request.headers.get('content-length');
  if (length === null || !/^\d+$/.test(length)) return readRequestBody(request, maxBytes);
  if (Number(length) > maxBytes) return { tooLarge: true };
  return { tooLarge: false, text: await request.text() };
}

// The SDK passes authInfo through to the factory untouched: it carries the caller, never a token.
function authInfoOf(caller: CallerContext): AuthInfo {
  return {
    token: '',
    clientId: caller.tokenId ?? caller.client ?? 'anonymous',
    scopes: [...caller.scopes],
    extra: { caller },
  };
}

function callerOf(authInfo: AuthInfo | undefined): CallerContext {
  const caller = authInfo?.extra?.caller as CallerContext | undefined;
  // The route always sets it; a missing caller would be a bug, and must not fall back to the local user.
  if (caller === undefined) throw new Error('bug: /mcp request without a caller');
  return caller;
}
