// Plain `call_tool` requests, answered without the SDK's server and transport
// (docs/history/benchmarks-history.md, "How we got here": the fifth pass). A tools/call of `call_tool` with nothing to relay (no progress token, no `_meta`
// for the upstream), from a client that cannot be asked to confirm (no elicitation), that is not a
// retry or a task, is answered as the SDK answers it, by the same `plainCallTool` its handler runs:
// in the modern era a 2026-07-28 request whose headers agree with its body and whose `_meta` is the
// bare envelope (one JSON body, `resultType` and `serverInfo` stamped); in the legacy era a request
// of an open session (one JSON body, which the Streamable HTTP spec lets a server send instead of an
// SSE stream). Anything else, valid or not, goes to the SDK, which owns every other answer and
// every rejection.
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isSpecType,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
} from '@modelcontextprotocol/server';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Context } from 'hono';
import {
  isObject,
  onlyKeys,
  plainCallMessage,
  SERVER_INFO,
  type ToolResult as Result,
} from '../mcp/index.js';
import type { HeaderSource, HttpEnv } from './shared/types.js';

/** A complete JSON answer, written as it is by the node lane or made a Response for Hono. */
export interface PlainReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The one modern revision the SDK serves (a test checks it still does). */
export const MODERN_REVISION = '2026-07-28';

export interface PlainCall {
  id: string | number;
  arguments: Record<string, unknown>;
}

const ENVELOPE_KEYS = new Set([
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
]);

/** The call when the request is a plain modern `call_tool`; undefined sends it to the SDK. */
export function plainModernCall(headers: HeaderSource, body: unknown): PlainCall | undefined {
  const call = plainCallMessage(body);
  if (call === undefined || !bareEnvelope(call.meta)) return undefined;
  if (
    headers.get('mcp-protocol-version') !== MODERN_REVISION ||
    headers.get('mcp-method') !== 'tools/call' ||
    headers.get('mcp-name') !== 'call_tool'
  )
    return undefined;
  return { id: call.id, arguments: call.arguments };
}

/** The protocol versions of the 2025 era the SDK serves. */
const LEGACY_VERSIONS = new Set(SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v < MODERN_REVISION));

/**
 * Whether the request is a 2025-era plain call by its body and headers alone: no `_meta` (so no
 * envelope claim) and no modern MCP-Protocol-Version header, which the SDK's `isLegacyRequest`
 * classifies as legacy too, after several schema checks a plain call does not need (~20 µs).
 */
export function surelyLegacy(headers: HeaderSource, body: unknown): boolean {
  const call = plainCallMessage(body);
  if (call === undefined || call.meta !== undefined) return false;
  const version = headers.get('mcp-protocol-version');
  return version === null || LEGACY_VERSIONS.has(version);
}

/**
 * The call when the request is a plain `call_tool` of a legacy session, as far as the request
 * shows (the session's client capabilities are the caller's to check); undefined sends it to the SDK.
 */
export function plainLegacyCall(headers: HeaderSource, body: unknown): PlainCall | undefined {
  const call = plainCallMessage(body);
  if (call === undefined || call.meta !== undefined) return undefined;
  // The SDK's transport answers these 406 and 400.
  const accept = headers.get('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  const version = headers.get('mcp-protocol-version');
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  return { id: call.id, arguments: call.arguments };
}

/** The JSON-RPC answer the SDK's legacy era gives a tools/call result, as one JSON body. */
export function plainLegacyAnswer(id: string | number, result: Result, sessionId: string): PlainReply {
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', id, result }),
  };
}

/** The JSON-RPC answer the SDK's modern era gives a complete tools/call result. */
export function plainAnswer(id: string | number, result: Result): PlainReply {
  const typed = result.resultType === undefined ? { ...result, resultType: 'complete' } : result;
  const meta = typed._meta;
  const stamped =
    meta === undefined
      ? { ...typed, _meta: { [SERVER_INFO_META_KEY]: SERVER_INFO } }
      : isObject(meta) && meta[SERVER_INFO_META_KEY] === undefined
        ? { ...typed, _meta: { ...meta, [SERVER_INFO_META_KEY]: SERVER_INFO } }
        : typed;
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, result: stamped }),
  };
}

/** The answer as a web Response (the Hono route's). */
export function toResponse(reply: Response | PlainReply): Response {
  return reply instanceof Response
    ? reply
    : new Response(reply.body, { status: reply.status, headers: reply.headers });
}

/**
 * Aborted when the client goes away before its answer is written, as the SDK's request signal
 * is: on a socket, its connection's signal instead of the adapter's per-request one.
 */
export function disconnectSignal(c: Context<HttpEnv>): AbortSignal {
  const socket = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing?.socket;
  return socket ? connectionSignal(socket) : c.req.raw.signal;
}

const CONNECTION_ABORT = new WeakMap<Socket, AbortController>();

/**
 * Aborted when the connection closes. A response on HTTP/1.1 closes unfinished only with its
 * connection, so this is what a controller per request would say, for the price of one signal per
 * connection (a new AbortSignal costs about 9 µs in Node 20). Its listeners outlive no call: each
 * one that listens removes its listener when it ends (plain-calls.ts, the SDK, lifecycle.ts).
 */
export function connectionSignal(socket: Socket): AbortSignal {
  let controller = CONNECTION_ABORT.get(socket);
  if (controller === undefined) {
    const made = new AbortController();
    if (socket.destroyed) made.abort();
    else socket.once('close', () => made.abort());
    CONNECTION_ABORT.set(socket, made);
    controller = made;
  }
  return controller.signal;
}

function bareEnvelope(meta: unknown): boolean {
  if (!isObject(meta) || !onlyKeys(meta, ENVELOPE_KEYS)) return false;
  if (meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return false;
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  // A client that can be asked to confirm goes through the SDK, which can ask it.
  if (!isObject(capabilities) || capabilities.elicitation !== undefined) return false;
  return validIdentity(meta[CLIENT_INFO_META_KEY], capabilities);
}

/** The SDK's own schemas judge clientInfo and capabilities, remembered by their text (clients repeat them). */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 256;

function validIdentity(info: unknown, capabilities: Record<string, unknown>): boolean {
  const text = JSON.stringify([info ?? null, capabilities]);
  let ok = judged.get(text);
  if (ok === undefined) {
    ok =
      (info === undefined || isSpecType.Implementation(info)) && isSpecType.ClientCapabilities(capabilities);
    if (judged.size >= JUDGED_MAX) judged.clear();
    judged.set(text, ok);
  }
  return ok;
}
