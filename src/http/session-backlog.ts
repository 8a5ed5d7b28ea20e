// A legacy session's messages sent before its client opens the GET stream (docs/http.md,
// "Sessions and eras"). The 2025 Streamable HTTP transport sends a session-wide notification (an
// upstream's log message, a resource update, tools/list_changed) on the session's GET stream, and
// drops it when that stream is not open; a client opens it only after `initialized`, so what came
// first was lost. The SDK's event store would not keep it for that first GET: it replays only to a
// GET that resumes with a Last-Event-ID, and it would store every message of every stream. So
// until the first GET stream opens, such messages wait here (the last MAX_BACKLOG of them) and go
// out, in order, as it opens. Messages of a request (progress, its log messages) go on that
// request's own POST stream and never wait.
import type { JSONRPCMessage, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

/** Messages kept for a session whose GET stream is not open yet; older ones are dropped first. */
export const MAX_BACKLOG = 100;

/** Holds `transport`'s session-wide notifications until `flush()` (the GET stream opened). */
export class SessionBacklog {
  private pending: JSONRPCMessage[] | undefined = [];
  private readonly send: WebStandardStreamableHTTPServerTransport['send'];

  constructor(transport: WebStandardStreamableHTTPServerTransport) {
    const send = transport.send.bind(transport);
    this.send = send;
    transport.send = (message, options) => {
      if (this.pending === undefined || options?.relatedRequestId !== undefined || 'id' in message)
        return send(message, options);
      if (this.pending.length >= MAX_BACKLOG) this.pending.shift();
      this.pending.push(message);
      return Promise.resolve();
    };
  }

  /** The GET stream is open: sends what waited, and holds nothing from now on. */
  async flush(): Promise<void> {
    const pending = this.pending ?? [];
    this.pending = undefined;
    for (const message of pending) await this.send(message);
  }
}
