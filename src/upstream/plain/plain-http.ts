// tools/call to a 2025-era Streamable HTTP upstream over node:http with keep-alive, without the
// client SDK's fetch-based transport (bench:load: undici and the SDK's funnel were most of Carte's
// CPU per call behind an HTTP upstream). The request is what the SDK would POST (its session id,
// protocol version and configured headers, an id from its own counter); the answer may be JSON or
// an SSE stream, and anything in it that is not our response (a server request, a notification)
// goes to the SDK's client as if its transport had read it, except the call's own progress, which
// is relayed here. A lost session (HTTP 404) fails with the SDK's own HTTP error, so
// UpstreamConnection reopens it as before. 2026-era upstreams and legacy SSE keep the SDK path.
import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import {
  type Client,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import {
  abortedError,
  asError,
  checkedResult,
  isObject,
  responseOf,
  timedOutError,
  withProgressToken,
} from './plain-answer.js';
import { LEGACY_WIRE_ERA, progressOf } from './plain-calls.js';
import { SseReader } from './sse-reader.js';
import { wireCodec, type CallCodec } from './wire-codec.js';
import type { CallOptions } from './types.js';
import type { Bearer } from '../oauth/bearer.js';
import { challengeOf } from '../oauth/challenge.js';

const METHOD = 'tools/call';
/** The wait before resuming a stream whose server gave no `retry` (ms). */
const DEFAULT_RETRY_MS = 1000;
/** Resumptions of one call's stream before it fails as ended without its answer. */
const MAX_RESUMES = 3;

/** How the plain path reaches one upstream: its URL, the configured headers and the body bound. */
export interface PlainHttpTarget {
  url: string;
  headers: Record<string, string>;
  /** Bytes an answer may take before it is refused (the result bound plus room for framing). */
  readLimit: number;
  /** The OAuth bearer of a server that signs in: sent on each call; a 401 refreshes once and retries once. */
  bearer?: Bearer;
}

/**
 * Plain calls for a client connected over Streamable HTTP in the 2025 era, or undefined when it
 * is not (another transport, the 2026 era, or an SDK whose internals this needs have moved).
 */
export function attachPlainHttpCalls(
  client: Client,
  transport: Transport,
  target: PlainHttpTarget,
): PlainHttpCalls | undefined {
  if (!(transport instanceof StreamableHTTPClientTransport)) return undefined;
  const codec = wireCodec(client);
  const version = client.getNegotiatedProtocolVersion();
  if (codec === undefined || codec.era !== LEGACY_WIRE_ERA || typeof version !== 'string') return undefined;
  const counter = client as unknown as { _requestMessageId?: unknown };
  if (typeof counter._requestMessageId !== 'number') return undefined;
  const nextId = () => (counter._requestMessageId as number)++;
  return new PlainHttpCalls(transport, codec, nextId, { ...target, version });
}

/** Plain tools/call POSTs on one session of one upstream, over a keep-alive agent of their own. */
export class PlainHttpCalls {
  /** Calls sent this way (`UpstreamConnection.plainCallsSent`). */
  sent = 0;
  /** Lines are the stdio path's concern (plain-calls.ts). */
  readonly readsLines = false;
  private readonly url: URL;
  private readonly agent: HttpAgent;
  private readonly request: typeof httpRequest;

  constructor(
    private readonly transport: StreamableHTTPClientTransport,
    private readonly codec: CallCodec,
    private readonly nextId: () => number,
    private readonly target: PlainHttpTarget & { version: string },
  ) {
    this.url = new URL(target.url);
    const https = this.url.protocol === 'https:';
    this.agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.request = https ? httpsRequest : httpRequest;
  }

  /** The last 401's or 403's `WWW-Authenticate`, for the one retry after it. */
  private challenge: string | undefined;

  /** Sends one tools/call; settles with the checked result or the SDK's error for the failure. */
  call(params: Record<string, unknown>, options: CallOptions): Promise<Record<string, unknown>> {
    const bearer = this.target.bearer;
    return bearer ? this.callWithBearer(bearer, params, options) : this.callOnce(params, options);
  }

  /** A call with the server's token; on a 401 (the server refused it unread) one refresh and one retry. */
  private async callWithBearer(
    bearer: Bearer,
    params: Record<string, unknown>,
    options: CallOptions,
  ): Promise<Record<string, unknown>> {
    try {
      return await this.callOnce(params, options, await bearer.token());
    } catch (err) {
      const status = (err as { status?: unknown }).status;
      const challenge = this.challenge;
      if (status === 403 && challenge && challengeOf(403, challenge).error === 'insufficient_scope')
        await bearer.onInsufficientScope(challenge);
      else if (status === 401) await bearer.onUnauthorized(challenge);
      else throw err;
      return this.callOnce(params, options, await bearer.token());
    }
  }

  private callOnce(
    params: Record<string, unknown>,
    options: CallOptions,
    token?: string,
  ): Promise<Record<string, unknown>> {
    const { signal, onProgress } = options;
    if (signal?.aborted) return Promise.reject(abortedError(signal));
    const id = this.nextId();
    this.sent++;
    const withToken = withProgressToken(params, id, onProgress !== undefined);
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: METHOD, params: withToken });
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: Record<string, unknown> | Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const req = this.request(this.url, {
        method: 'POST',
        agent: this.agent,
        headers: this.headers(body, token),
      });
      const cancel = (err: SdkError) => {
        if (settled) return;
        settle(err);
        active.destroy();
        // As the SDK does on a timeout or an abort: tell the upstream (on the SDK's own transport).
        void this.transport
          .send({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: err.message },
          })
          .catch(() => undefined);
      };
      const timeout = options.timeoutMs;
      const timer = setTimeout(() => cancel(timedOutError(timeout)), timeout);
      const onAbort = () => cancel(abortedError(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err) => settle(asError(err)));
      const progress = (message: Record<string, unknown>) => {
        if (message.method !== 'notifications/progress') return false;
        const update = progressOf(message.params);
        if (update?.token !== id || onProgress === undefined) return false;
        timer.refresh(); // resetTimeoutOnProgress, as callTool asked of the SDK
        onProgress(update.progress);
        return true;
      };
      const done = () => settled;
      // A stream that ends before the answer is resumed on a GET (SEP-1699); cancel stops that one.
      const resume = (after: SseReader, resumes: number) =>
        setTimeout(() => {
          if (settled) return;
          active = this.resumeRequest(after.lastEventId!, token);
          active.on('error', (err) => settle(asError(err)));
          active.on('response', (res) => this.read(res, id, { settle, progress, done, resume, resumes }));
          active.end();
        }, after.retryMs ?? DEFAULT_RETRY_MS);
      let active = req;
      req.on('response', (res) => this.read(res, id, { settle, progress, done, resume, resumes: 0 }));
      req.end(body);
    });
  }

  /** The GET that resumes a call's stream after its last event (MCP 2025-11-25, "Resumability"). */
  private resumeRequest(lastEventId: string, token: string | undefined): ReturnType<typeof httpRequest> {
    const session = this.transport.sessionId;
    return this.request(this.url, {
      method: 'GET',
      agent: this.agent,
      headers: {
        ...this.target.headers,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        accept: 'text/event-stream',
        'last-event-id': lastEventId,
        'mcp-protocol-version': this.target.version,
        ...(session ? { 'mcp-session-id': session } : {}),
      },
    });
  }

  /** Closes the agent's idle sockets (the session itself ends with the SDK's transport). */
  close(): void {
    this.agent.destroy();
  }

  private headers(body: string, token: string | undefined): Record<string, string | number> {
    const session = this.transport.sessionId;
    return {
      ...this.target.headers,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'content-length': Buffer.byteLength(body),
      'mcp-protocol-version': this.target.version,
      ...(session ? { 'mcp-session-id': session } : {}),
    };
  }

  /** Reads an answer: an HTTP error, a JSON body, or an SSE stream of messages. */
  private read(
    res: IncomingMessage,
    id: number,
    on: {
      settle: (outcome: Record<string, unknown> | Error) => void;
      progress: (message: Record<string, unknown>) => boolean;
      /** Whether the call has settled (an answer's end then needs no error built: its stack costs). */
      done: () => boolean;
      /** Resumes the call on a GET once the server's retry time has passed. */
      resume: (after: SseReader, resumes: number) => void;
      resumes: number;
    },
  ): void {
    const { settle } = on;
    const status = res.statusCode ?? 0;
    const type = (res.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
    const chunks: Buffer[] = [];
    let size = 0;
    const tooBig = () => {
      settle(
        new SdkError(
          SdkErrorCode.InvalidResult,
          `the answer is over the ${this.target.readLimit}-byte read limit`,
        ),
      );
      res.destroy();
    };
    const take = (message: unknown) => {
      if (isObject(message) && message.id === id && !('method' in message)) {
        const answer = responseOf(message);
        settle(
          answer
            ? checkedResult(this.codec, METHOD, answer)
            : new SdkError(SdkErrorCode.InvalidResult, `Invalid response for ${METHOD}`),
        );
      } else if (isObject(message) && !on.progress(message)) this.transport.onmessage?.(message as never);
    };
    let sse: SseReader | undefined;
    if (status >= 200 && status < 300 && type === 'text/event-stream') {
      sse = new SseReader((data) => {
        let message: unknown;
        try {
          message = JSON.parse(data);
        } catch {
          return; // as the SDK's stream reader: a bad event is the transport's error, not the call's
        }
        take(message);
      });
      const decoder = new StringDecoder('utf8');
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.target.readLimit) return tooBig();
        sse!.push(decoder.write(chunk));
      });
    } else {
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.target.readLimit) return tooBig();
        chunks.push(chunk);
      });
    }
    res.on('error', (err) => settle(asError(err)));
    res.on('end', () => {
      if (on.done()) return;
      if (sse?.lastEventId !== undefined && on.resumes < MAX_RESUMES) return on.resume(sse, on.resumes + 1);
      const text = Buffer.concat(chunks).toString('utf8');
      if (status < 200 || status >= 300) {
        if (status === 401 || status === 403) this.challenge = res.headers['www-authenticate'];
        const data = { status, statusText: res.statusMessage ?? '', text };
        return settle(
          new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, data),
        );
      }
      if (type === 'application/json') {
        try {
          const parsed: unknown = JSON.parse(text);
          for (const m of Array.isArray(parsed) ? parsed : [parsed]) take(m);
        } catch (err) {
          return settle(asError(err));
        }
      } else if (type !== 'text/event-stream') {
        const contentType = res.headers['content-type'];
        return settle(
          new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, `Unexpected content type: ${contentType}`, {
            contentType,
          }),
        );
      }
      settle(
        new SdkError(
          SdkErrorCode.ConnectionClosed,
          `the upstream ended its answer to request ${id} without a response`,
        ),
      );
    });
  }
}
