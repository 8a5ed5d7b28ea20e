// `subscriptions/listen` on /mcp, the 2026-07-28 way to hear of changes (docs/mcp.md, "Logging and
// resource subscriptions"). The SDK's handler serves the stream itself (the acknowledgement, the
// filter, the subscription id on each notification, keep-alives), fed by a change-event bus; what
// it cannot do is subscribe upstream. So each listen stream gets a handler of its own whose bus
// carries only that stream's events: its resource URIs are subscribed upstream first (a refusal
// answers the listen with the error), updates are published on its bus, and when the SDK lets go
// of the bus (the client closed the stream, which is cancellation on HTTP, or Carte shut down) the
// upstream subscriptions are released, the last holder unsubscribing upstream.
import {
  createMcpHandler,
  InMemoryServerEventBus,
  type McpServerFactory,
  type ServerEvent,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { ERROR_CODES, toCarteError } from '../errors.js';
import type { CallerContext, Gateway } from '../gateway/index.js';

/** Open listen streams at most (the SDK's own default for one handler). */
export const MAX_LISTEN_STREAMS = 1024;

/** The open listen streams of one /mcp endpoint. */
export class ListenStreams {
  private readonly open = new Set<() => void>();

  constructor(
    private readonly gateway: Gateway,
    private readonly factory: McpServerFactory,
    private readonly onerror?: (error: Error) => void,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** Serves one listen request (`listenMessage(body)` said it is one) on a handler of its own. */
  async serve(
    caller: CallerContext,
    listen: { id: string | number; uris: string[] },
    request: Request,
    options: { authInfo: unknown; parsedBody: unknown },
  ): Promise<Response> {
    if (this.open.size >= MAX_LISTEN_STREAMS)
      return rpcAnswer(listen.id, -32603, 'Subscription limit reached');
    const bus = new InMemoryServerEventBus(this.onerror);
    const events = this.gateway.passthrough.openEvents(caller, {
      updated: (uri) => bus.publish({ kind: 'resource_updated', uri }),
    });
    try {
      for (const uri of listen.uris) await events.subscribe(uri);
    } catch (err) {
      events.close();
      const e = toCarteError(err);
      return rpcAnswer(listen.id, ERROR_CODES[e.code].jsonrpc, e.message);
    }
    let held = false;
    const handler = createMcpHandler(this.factory, {
      legacy: 'reject',
      bus: releasing(
        bus,
        () => (held = true),
        () => end(),
      ),
      ...(this.onerror ? { onerror: this.onerror } : {}),
    });
    const end = () => {
      if (!this.open.delete(end)) return;
      events.close();
      handler.close().catch(() => undefined);
    };
    this.open.add(end);
    const response = await handler.fetch(request, options as never);
    // Refused (bad params, a header the SDK wants), or nothing to hear: the SDK never held the bus.
    if (!held) end();
    return response;
  }

  /** Ends every stream (their handlers close them gracefully) and releases their subscriptions. */
  closeAll(): void {
    for (const end of [...this.open]) end();
  }
}

/** `bus`, telling when the SDK's listen stream takes hold of it and when it lets go. */
function releasing(bus: ServerEventBus, held: () => void, released: () => void): ServerEventBus {
  return {
    publish: (event: ServerEvent) => bus.publish(event),
    subscribe: (listener) => {
      held();
      const unsubscribe = bus.subscribe(listener);
      return () => {
        unsubscribe();
        released();
      };
    },
  };
}

/** A JSON-RPC error answering the listen in band (HTTP 200), as the SDK answers its own refusals. */
function rpcAnswer(id: string | number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status: 200 });
}
