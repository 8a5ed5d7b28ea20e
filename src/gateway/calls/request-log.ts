// Log messages of one 2026-07-28 request (docs/mcp.md, "Logging and resource subscriptions").
// That revision has no session:
// a request asks for log messages with `_meta["io.modelcontextprotocol/logLevel"]`, and the
// server sends those it emits for that request on the request's own stream. Carte forwards the
// level on the upstream request and, while the request is in flight, relays the log messages of
// the server it went to. The SDK's client does not say which request an upstream message belongs
// to, so a message from that server during the request is taken as the request's.
import { LOG_LEVELS, type LogLevel } from '../../upstream/index.js';
import type { RequestLog } from '../shared/types.js';

const SEVERITY = new Map<string, number>(LOG_LEVELS.map((l, i) => [l, i]));

/** Whether a message at `level` (an unknown level counts as the most severe) reaches `threshold`. */
export function atOrAbove(level: unknown, threshold: LogLevel): boolean {
  const severity = SEVERITY.get(String(level)) ?? LOG_LEVELS.length - 1;
  return severity >= SEVERITY.get(threshold)!;
}

/** The message with its `logger` prefixed by the server id (`fx`, or `fx/<logger>`). */
export function fromServer(serverId: string, params: Record<string, unknown>): Record<string, unknown> {
  const logger = typeof params.logger === 'string' ? `${serverId}/${params.logger}` : serverId;
  return { ...params, logger };
}

/** The requests in flight that asked for log messages, by the server they went to. */
export class LogTaps {
  private readonly taps = new Map<string, Set<RequestLog>>();

  /** Relays `serverId`'s log messages to `log` until the returned function is called. */
  add(serverId: string, log: RequestLog): () => void {
    let set = this.taps.get(serverId);
    if (!set) this.taps.set(serverId, (set = new Set()));
    set.add(log);
    return () => {
      set.delete(log);
      if (set.size === 0 && this.taps.get(serverId) === set) this.taps.delete(serverId);
    };
  }

  /** An upstream log message: to each request in flight to that server at or above its level. */
  hear(serverId: string, params: Record<string, unknown>): void {
    const set = this.taps.get(serverId);
    if (!set) return;
    const message = fromServer(serverId, params);
    for (const log of set) if (atOrAbove(params.level, log.level)) log.send(message);
  }
}
