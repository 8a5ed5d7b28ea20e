// tools/call to a 2025-era stdio upstream without the client SDK's request machinery
// (docs/history/benchmarks-history.md, "How we got here": the seventh pass).
// The SDK's request funnel costs a promise
// executor, an abort listener, a timeout record and a second promise per call; this sends the request on the same
// transport under an id drawn from the SDK's own counter (so the wire is exactly what the SDK would
// send, numbers and all, and no id is ever used twice), takes the response and its progress
// notifications off the transport before the SDK sees them, and checks the result
// with the era's own codec, so a result reads exactly as it did through `client.request`. Errors are
// the SDK's own types (SdkError, ProtocolError), so mapUpstreamError explains them as before.
import { type Client, SdkError, SdkErrorCode, type Transport } from '@modelcontextprotocol/client';
import { installLineReader, LineReader } from './line-reader.js';
import {
  abortedError,
  asError,
  checkedResult,
  isObject,
  responseOf,
  timedOutError,
  withProgressToken,
  type Answer,
} from './plain-answer.js';
import { wireCodec, type CallCodec } from './wire-codec.js';
import type { CallOptions, ProgressUpdate } from './types.js';

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  onProgress?: (p: ProgressUpdate) => void;
}

const METHOD = 'tools/call';

/**
 * Plain calls for a connected client in the 2025 era, or undefined: a 2026-era one keeps the SDK's
 * funnel (it adds a `_meta` envelope), as does an SDK whose internals this needs have moved.
 */
export function attachPlainCalls(
  client: Client,
  transport: Transport,
  readLimit: number,
): PlainCalls | undefined {
  const codec = wireCodec(client);
  if (codec === undefined || codec.era !== LEGACY_WIRE_ERA) return undefined;
  // Ids come from the SDK's own request counter (a protected field): the upstream sees the ids
  // the SDK would have sent, and no id is used twice on the connection.
  const counter = client as unknown as { _requestMessageId?: unknown };
  if (typeof counter._requestMessageId !== 'number') return undefined;
  const nextId = () => (counter._requestMessageId as number)++;
  return new PlainCalls(transport, codec, nextId, readLimit);
}

/** The codec era of the 2025-11-25 wire, which every pre-2026 protocol version speaks. */
export const LEGACY_WIRE_ERA = '2025-11-25';

/** Plain tools/call requests on one connected transport (wraps its message and close handlers). */
export class PlainCalls {
  private readonly pending = new Map<number, Pending>();
  /** Calls sent this way (`UpstreamConnection.plainCallsSent`). */
  sent = 0;
  /** Whether our line reader replaced the transport's (an SDK that changed shape keeps its own). */
  readsLines = false;

  /**
   * Our responses are taken straight off the transport's line reader (line-reader.ts; `readLimit`
   * is the stdio read buffer's size), so they skip the SDK's JSON-RPC schema check; only if that
   * reader cannot be replaced are they taken from the transport's `onmessage` instead.
   */
  constructor(
    private readonly transport: Transport,
    private readonly codec: CallCodec,
    private readonly nextId: () => number,
    readLimit: number,
  ) {
    const deliver = transport.onmessage;
    const closed = transport.onclose;
    if (deliver === undefined) throw new Error('bug: PlainCalls attached before the client connected');
    const ours = (message: unknown) => this.pending.size > 0 && this.take(message);
    this.readsLines = installLineReader(transport, new LineReader(readLimit, ours));
    if (!this.readsLines)
      transport.onmessage = (message, extra) => {
        if (!ours(message)) deliver(message, extra);
      };
    transport.onclose = () => {
      try {
        closed?.();
      } finally {
        this.failAll(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
      }
    };
  }

  /**
   * Sends one tools/call and settles with the checked result, or the SDK's error for the failure.
   * Of `options` it reads the timeout (reset by progress), the signal and the progress callback.
   */
  call(params: Record<string, unknown>, options: CallOptions): Promise<Record<string, unknown>> {
    const { signal, onProgress } = options;
    if (signal?.aborted) return Promise.reject(abortedError(signal));
    const id = this.nextId();
    this.sent++;
    const body = withProgressToken(params, id, onProgress !== undefined);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const onAbort = () => this.cancel(id, abortedError(signal!));
      const done = () => signal?.removeEventListener('abort', onAbort);
      const timeout = options.timeoutMs;
      const timer = setTimeout(() => this.cancel(id, timedOutError(timeout)), timeout);
      this.pending.set(id, {
        resolve: (r) => (done(), resolve(r)),
        reject: (e) => (done(), reject(e)),
        timer,
        ...(onProgress ? { onProgress } : {}),
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.transport
        .send({ jsonrpc: '2.0', id, method: METHOD, params: body })
        .catch((err: unknown) => this.settle(id)?.reject(asError(err)));
    });
  }

  /**
   * Whether `message` was a response or progress of ours (then it is handled here). It may come
   * straight from JSON.parse (line-reader.ts), so its shape is checked as the SDK's schema would;
   * anything else goes on to the SDK, which checks and reports it as before.
   */
  private take(message: unknown): boolean {
    if (!isObject(message) || message.jsonrpc !== '2.0') return false;
    const { id } = message;
    if (typeof id === 'number') {
      if ('method' in message || !this.pending.has(id)) return false;
      const answer = responseOf(message);
      if (answer === undefined) return false;
      this.answer(this.settle(id)!, answer);
      return true;
    }
    if (message.method !== 'notifications/progress') return false;
    const update = progressOf(message.params);
    const p = update && this.pending.get(update.token);
    if (p?.onProgress === undefined) return false;
    p.timer.refresh(); // resetTimeoutOnProgress, as callTool asked of the SDK
    p.onProgress(update!.progress);
    return true;
  }

  private answer(p: Pending, response: Answer): void {
    const checked = checkedResult(this.codec, METHOD, response);
    if (checked instanceof Error) p.reject(checked);
    else p.resolve(checked);
  }

  /** Removes a pending call (and its timer); undefined when it already settled. */
  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (p === undefined) return undefined;
    this.pending.delete(id);
    clearTimeout(p.timer);
    return p;
  }

  /** Timed out or aborted: tell the upstream (as the SDK does) and fail the call. */
  private cancel(id: number, err: SdkError): void {
    const p = this.settle(id);
    if (p === undefined) return;
    this.transport
      .send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: err.message },
      })
      .catch(() => undefined);
    p.reject(err);
  }

  /** Nothing of its own to close: the calls end with the transport. */
  close(): void {}

  private failAll(err: SdkError): void {
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(err);
  }
}

/** A well-formed progress notification's token and numbers, else undefined. */
export function progressOf(params: unknown): { token: number; progress: ProgressUpdate } | undefined {
  if (!isObject(params) || typeof params.progressToken !== 'number' || typeof params.progress !== 'number')
    return undefined;
  const { total, message } = params;
  if (
    (total !== undefined && typeof total !== 'number') ||
    (message !== undefined && typeof message !== 'string')
  )
    return undefined;
  return {
    token: params.progressToken,
    progress: {
      progress: params.progress,
      ...(total !== undefined ? { total } : {}),
      ...(message !== undefined ? { message } : {}),
    },
  };
}
