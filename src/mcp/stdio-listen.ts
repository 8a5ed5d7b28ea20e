// `subscriptions/listen` on a 2026-07-28 stdio connection (docs/mcp.md, "Logging and resource
// subscriptions"). serveStdio answers the listen itself and routes the pinned server's
// `notifications/resources/updated` onto the listens that asked for that URI; what it cannot do is
// subscribe upstream. So a listen with resource URIs is held back until they are subscribed
// upstream (a refusal answers it with the error, and it never reaches the SDK), then passed on.
// The connection's listens share one event session: a URI is subscribed while one listen at least
// holds it, and released when the client cancels the last (`notifications/cancelled` naming the
// listen) or the connection closes.
import { PROTOCOL_VERSION_META_KEY, type Server } from '@modelcontextprotocol/server';
import type { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { ERROR_CODES, toCarteError } from '../errors.js';
import type { CallerContext, DownstreamEvents, Gateway } from '../gateway/index.js';
import { isObject } from './tool-call.js';

type Id = string | number;

/** The URIs each open listen holds, and how many listens hold each URI, on one connection. */
export class ListenHolds {
  private readonly listens = new Map<Id, string[]>();
  private readonly counts = new Map<string, number>();

  constructor(private readonly events: DownstreamEvents) {}

  /** Holds `uris` for listen `id`, subscribing upstream those no other listen holds; all or none. */
  async open(id: Id, uris: string[]): Promise<void> {
    const taken: string[] = [];
    try {
      for (const uri of new Set(uris)) {
        const n = this.counts.get(uri) ?? 0;
        if (n === 0) await this.events.subscribe(uri);
        this.counts.set(uri, (this.counts.get(uri) ?? 0) + 1);
        taken.push(uri);
      }
    } catch (err) {
      this.release(taken);
      throw err;
    }
    this.listens.set(id, taken);
  }

  /** Whether `id` is a listen holding URIs here. */
  has(id: Id): boolean {
    return this.listens.has(id);
  }

  /** The listen ended: its URIs are released, upstream too where it was the last holder. */
  close(id: Id): void {
    const uris = this.listens.get(id);
    this.listens.delete(id);
    if (uris) this.release(uris);
  }

  /** The connection ended: every subscription of it goes. */
  closeAll(): void {
    this.listens.clear();
    this.counts.clear();
    this.events.close();
  }

  private release(uris: string[]): void {
    for (const uri of uris) {
      const n = (this.counts.get(uri) ?? 1) - 1;
      if (n > 0) {
        this.counts.set(uri, n);
        continue;
      }
      this.counts.delete(uri);
      this.events.unsubscribe(uri).catch(() => undefined);
    }
  }
}

/**
 * Wraps the transport's message and close handlers (call after serveStdio set them) so the
 * connection's listens subscribe upstream. `era` says which era the connection is pinned to, if
 * any yet; `modern` is its 2026-era server, which delivers updates onto the listens.
 */
export function interceptListens(
  transport: StdioServerTransport,
  at: {
    gateway: Gateway;
    caller: CallerContext;
    era: () => 'legacy' | 'modern' | undefined;
    modern: () => Server | undefined;
  },
  onError: (err: Error) => void,
): void {
  const deliver = transport.onmessage;
  const closed = transport.onclose;
  if (deliver === undefined) throw new Error('bug: serveStdio did not set the transport handlers');
  let holds: ListenHolds | undefined;
  const holdsNow = () =>
    (holds ??= new ListenHolds(
      at.gateway.passthrough.openEvents(at.caller, {
        updated: (uri) =>
          void at
            .modern()
            ?.sendResourceUpdated({ uri })
            .catch(() => undefined),
      }),
    ));
  transport.onmessage = (message) => {
    // A listen on a 2025-era connection, or with no envelope (the SDK refuses both), is the SDK's.
    const listen = at.era() === 'legacy' || !claimsEnvelope(message) ? undefined : listenMessage(message);
    if (listen === undefined || listen.uris.length === 0) {
      const cancelled = cancelledId(message);
      if (cancelled !== undefined && holds?.has(cancelled)) holds.close(cancelled);
      deliver(message);
      return;
    }
    holdsNow()
      .open(listen.id, listen.uris)
      .then(
        () => deliver(message),
        (err: unknown) => {
          const e = toCarteError(err);
          const error = { code: ERROR_CODES[e.code].jsonrpc, message: e.message };
          transport.send({ jsonrpc: '2.0', id: listen.id, error }).catch(onError);
        },
      );
  };
  transport.onclose = () => {
    holds?.closeAll();
    closed?.();
  };
}

/** A `subscriptions/listen` request's id and the resource URIs it names (maybe none), else undefined. */
export function listenMessage(message: unknown): { id: Id; uris: string[] } | undefined {
  if (!isObject(message) || message.method !== 'subscriptions/listen') return undefined;
  if (typeof message.id !== 'string' && typeof message.id !== 'number') return undefined;
  const filter = isObject(message.params) ? message.params.notifications : undefined;
  const uris = isObject(filter) ? filter.resourceSubscriptions : undefined;
  const strings = Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string') : [];
  return { id: message.id, uris: strings };
}

function claimsEnvelope(message: unknown): boolean {
  const params = isObject(message) ? message.params : undefined;
  return isObject(params) && isObject(params._meta) && PROTOCOL_VERSION_META_KEY in params._meta;
}

function cancelledId(message: unknown): Id | undefined {
  if (!isObject(message) || message.method !== 'notifications/cancelled' || 'id' in message) return undefined;
  const id = isObject(message.params) ? message.params.requestId : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
