// Plain `call_tool` requests on a 2025-era stdio connection, answered without the SDK's server
// (docs/http.md, "Plain calls", has the HTTP face's; docs/history/benchmarks-history.md,
// "How we got here": the fifth pass). Once the connection is pinned to the legacy era and its client has said, at initialize, that it cannot be
// asked to confirm (no elicitation), a tools/call of `call_tool` with no `_meta` is run by the same
// `plainCallTool` the handler runs and answered on the same transport. Everything else, and every
// 2026-07-28 stdio connection, goes to the SDK as before. A client's notifications/cancelled for a
// plain call aborts it; the connection closing aborts every one in flight.
import type { Server } from '@modelcontextprotocol/server';
import type { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { cannotConfirm, PlainCallsInFlight } from './in-flight.js';
import { plainCallMessage, type Result } from './tool-call.js';

type Run = (args: Record<string, unknown>, signal: AbortSignal) => Promise<Result>;

/**
 * Wraps the transport's message and close handlers (call after serveStdio set them). Returns the
 * taker the stdin filter offers parsed lines to (guard-transport.ts), so most plain calls are taken
 * before the SDK's transport reads them; one the filter could not take yet (before initialize was
 * handled) is still taken here.
 */
export function interceptPlainCalls(
  transport: StdioServerTransport,
  legacyServer: () => Server | undefined,
  run: Run,
  onError: (err: Error) => void,
): (message: unknown) => boolean {
  const deliver = transport.onmessage;
  const closed = transport.onclose;
  if (deliver === undefined) throw new Error('bug: serveStdio did not set the transport handlers');
  const inflight = new PlainCallsInFlight();
  const take = (message: unknown): boolean => {
    const call = plainCall(legacyServer(), message);
    if (call === undefined || inflight.has(call.id)) return false;
    void inflight
      .run(call.id, (signal) => run(call.arguments, signal))
      .then((result) => transport.send({ jsonrpc: '2.0', id: call.id, result }))
      .catch((err: unknown) => onError(err instanceof Error ? err : new Error(String(err))));
    return true;
  };
  transport.onmessage = (message) => {
    if (take(message)) return;
    inflight.cancel(message);
    deliver(message);
  };
  transport.onclose = () => {
    inflight.abortAll();
    closed?.();
  };
  return take;
}

function plainCall(server: Server | undefined, message: unknown) {
  if (server === undefined) return undefined;
  const call = plainCallMessage(message);
  if (call === undefined || call.meta !== undefined) return undefined;
  // Before initialize the client's capabilities are unknown: the SDK answers whatever comes first.
  return cannotConfirm(server) ? call : undefined;
}
