// One JSON POST to a remote search provider, every failure turned into a one-sentence CarteError.
import { CarteError } from '../../errors.js';

/** The `fetch` the remote providers call; Node's global by default, injectable for tests. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** What one POST needs besides its URL and body. */
export interface PostOptions {
  /** Provider id used in messages, e.g. `openai:api.openai.com/text-embedding-3-small`. */
  provider: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never put in a message. */
  apiKey?: string | undefined;
  timeoutMs: number;
  /** The caller's cancellation (e.g. withFallback's deadline); its reason is rethrown as is. */
  signal?: AbortSignal | undefined;
  fetch: FetchLike;
}

/** The sentence for a provider that missed its deadline; shared so both deadlines read the same. */
export function timeoutReason(provider: string, timeoutMs: number): string {
  return `remote provider "${provider}" did not answer within ${timeoutMs} ms`;
}

/** A CarteError for a response that parsed as JSON but is not what the protocol says. */
export function badResponse(provider: string, what: string): CarteError {
  return new CarteError('upstream_error', `remote provider "${provider}" answered ${what}`);
}

/** `host` (with port) of a URL for ids and messages: no credentials, path or query. */
export function hostOf(url: string): string {
  return new URL(url).host;
}

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for an integer in 0..length-1. */
export function isIndex(value: unknown, length: number): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) < length;
}

// undici reports "fetch failed" and keeps the useful part ("other side closed", ECONNREFUSED) in `cause`.
function networkDetail(err: unknown): string {
  const cause = err instanceof Error ? err.cause : undefined;
  const source = cause instanceof Error ? cause : err;
  return source instanceof Error ? source.message : String(source);
}

/** POST `body` as JSON and return the parsed JSON answer; throws a CarteError naming what failed. */
export async function postJson(url: string, body: unknown, options: PostOptions): Promise<unknown> {
  const name = `remote provider "${options.provider}"`;
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  try {
    const res = await options.fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
    if (!res.ok) {
      // The body is not quoted: error pages can echo request headers, and with them the key.
      await res.body?.cancel();
      throw new CarteError('upstream_error', `${name} answered HTTP ${res.status}`);
    }
    const text = await res.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw badResponse(options.provider, 'with a body that is not JSON');
    }
  } catch (err) {
    if (err instanceof CarteError) throw err;
    if (options.signal?.aborted) throw options.signal.reason;
    if (deadline.aborted) throw new CarteError('timeout', timeoutReason(options.provider, options.timeoutMs));
    throw new CarteError('upstream_unavailable', `${name} connection failed: ${networkDetail(err)}`, {
      cause: err,
    });
  }
}
