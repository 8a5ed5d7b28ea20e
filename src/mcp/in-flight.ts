// Plain calls in flight on one connection (a legacy HTTP session or a stdio connection): the SDK's
// server never saw them, so its cancellation cannot reach them; this does.
import type { Server } from '@modelcontextprotocol/server';
import { cancelledIds } from './tool-call.js';

export class PlainCallsInFlight {
  private readonly calls = new Map<string | number, AbortController>();

  /** A second call with the same id goes to the SDK, which answers it as it would. */
  has(id: string | number): boolean {
    return this.calls.has(id);
  }

  /** Runs one call under `abort`, reachable by its id until it settles. */
  async run<T>(
    id: string | number,
    abort: AbortController,
    fn: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    this.calls.set(id, abort);
    try {
      return await fn(abort.signal);
    } finally {
      this.calls.delete(id);
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
