// Plain calls in flight on one connection (a legacy HTTP session or a stdio connection): the SDK's
// server never saw them, so its cancellation cannot reach them; this does.
import { getEventListeners } from 'node:events';
import type { Server } from '@modelcontextprotocol/server';
import { cancelledIds } from './tool-call.js';

/** Spare controllers kept per connection, at most (a burst of calls past it makes new ones). */
const SPARES_MAX = 64;

export class PlainCallsInFlight {
  private readonly calls = new Map<string | number, AbortController>();
  /**
   * Controllers of calls that ended not aborted and with no listener left on their signal, for
   * the next calls: a new AbortSignal costs about 5 µs in Node 20, a third of what the stdio face
   * spends of its own on a call's way in (docs/history/benchmarks-history.md, "Spare abort controllers").
   */
  private readonly spares: AbortController[] = [];

  /** A second call with the same id goes to the SDK, which answers it as it would. */
  has(id: string | number): boolean {
    return this.calls.has(id);
  }

  /**
   * Runs one call, reachable by its id until it settles, under a spare controller of this
   * connection's (taken back when the call ends clean) or a new one. `alsoOn`: a signal whose
   * abort aborts the call too (its HTTP connection's).
   */
  async run<T>(
    id: string | number,
    fn: (signal: AbortSignal) => Promise<T>,
    alsoOn?: AbortSignal,
  ): Promise<T> {
    const controller = this.spares.pop() ?? new AbortController();
    const stop = () => controller.abort();
    if (alsoOn?.aborted) stop();
    else alsoOn?.addEventListener('abort', stop, { once: true });
    this.calls.set(id, controller);
    try {
      return await fn(controller.signal);
    } finally {
      this.calls.delete(id);
      alsoOn?.removeEventListener('abort', stop);
      if (this.spares.length < SPARES_MAX && clean(controller.signal)) this.spares.push(controller);
    }
  }

  /** Aborts the calls a client's notifications/cancelled (in `message`) names. */
  cancel(message: unknown): void {
    if (this.calls.size === 0) return;
    for (const id of cancelledIds(message)) this.calls.get(id)?.abort();
  }

  /** The connection is gone: every call in flight stops. */
  abortAll(): void {
    for (const abort of this.calls.values()) abort.abort();
  }
}

/** Whether the initialized client behind `server` cannot be asked to confirm (no elicitation): the SDK asks the others. */
export function cannotConfirm(server: Server): boolean {
  const capabilities = server.getClientCapabilities();
  return capabilities !== undefined && capabilities.elicitation === undefined;
}

/** Nothing heard or will hear this signal: whoever listened during the call removed its listener. */
function clean(signal: AbortSignal): boolean {
  return !signal.aborted && getEventListeners(signal, 'abort').length === 0;
}
