// A 2026-07-28 request's own log level (docs/mcp.md, "Logging and resource subscriptions"):
// that revision has no
// `logging/setLevel`; a request that wants log messages carries
// `_meta["io.modelcontextprotocol/logLevel"]` (the SDK lifts it into `ctx.mcpReq.envelope`, having
// checked it is a level), and they come back on that request's own stream.
import { LOG_LEVEL_META_KEY } from '@modelcontextprotocol/server';
import type { RequestLog } from '../gateway/index.js';

/** What of a request handler's context this reads. */
export interface LogContext {
  mcpReq: {
    signal: AbortSignal;
    envelope?: Record<string, unknown>;
    notify: (n: { method: 'notifications/message'; params: Record<string, unknown> }) => Promise<void>;
  };
}

/** Where the upstream log messages of this request go, or undefined when it asked for none. */
export function requestLog(ctx: LogContext): RequestLog | undefined {
  const level = ctx.mcpReq.envelope?.[LOG_LEVEL_META_KEY];
  if (typeof level !== 'string') return undefined;
  return {
    level: level as RequestLog['level'],
    send: (params) =>
      void ctx.mcpReq.notify({ method: 'notifications/message', params }).catch(() => undefined),
  };
}
