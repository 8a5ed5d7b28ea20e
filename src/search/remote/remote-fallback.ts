// Remote search steps under a short deadline that fall back to the local ranking and say why.
import { CarteError, quote } from '../../errors.js';
import { badResponse, timeoutReason } from './remote-http.js';
import type { Reranker } from './remote-reranker.js';
import type { SearchHit } from '../query/types.js';

/** Which provider ranked the result, or why the local ranking was used instead. */
export type RemoteMeta =
  { provider: string; fallback: false } | { provider: string; fallback: true; reason: string };

/** A value with where it came from. */
export interface WithMeta<T> {
  value: T;
  meta: RemoteMeta;
}

/** Options of withFallback; only `provider` is required. */
export interface FallbackOptions {
  /** Provider id for metadata and reasons (an Embedder's or Reranker's `id`). */
  provider: string;
  /** Deadline of the whole remote step. */
  timeoutMs?: number;
  /** The caller's cancellation: rethrown as is, not a fallback. */
  signal?: AbortSignal | undefined;
  /** Told the reason of each fallback (the gateway logs it). */
  onFallback?: ((reason: string) => void) | undefined;
}

/** Default deadline of a remote step: 1.5 s, short enough for an interactive search. */
export const FALLBACK_DEFAULTS = { timeoutMs: 1500 } as const;

// The remote step may ignore its signal (hybrid search cannot pass one on), so the deadline also races it.
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => {}); // the loser's rejection is expected and must not go unhandled
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function reasonOf(provider: string, err: unknown): string {
  if (err instanceof CarteError) return err.message;
  return `remote provider "${provider}" failed: ${err instanceof Error ? err.message : String(err)}`;
}

/** Run `remote` under a deadline; on any failure return `local` with a one-sentence reason. */
export async function withFallback<T>(
  remote: (signal: AbortSignal) => Promise<T>,
  local: T,
  options: FallbackOptions,
): Promise<WithMeta<T>> {
  const { provider } = options;
  const timeoutMs = options.timeoutMs ?? FALLBACK_DEFAULTS.timeoutMs;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  try {
    return { value: await raceAbort(remote(signal), signal), meta: { provider, fallback: false } };
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    const reason = deadline.aborted ? timeoutReason(provider, timeoutMs) : reasonOf(provider, err);
    options.onFallback?.(reason);
    return { value: local, meta: { provider, fallback: true, reason } };
  }
}

/** Options of rerankWithFallback: the reranker, the text of a key, how many top hits it sees. */
export interface RerankFallbackOptions extends Omit<FallbackOptions, 'provider'> {
  reranker: Reranker;
  /** The text the reranker reads for a tool (e.g. toolEmbeddingText of its doc). */
  textOf: (key: string) => string;
  /** How many of the best local hits are reranked; the rest keep their place below them. */
  topN?: number;
}

/** Default number of local hits sent to the reranker. */
export const RERANK_DEFAULTS = { topN: 20 } as const;

/**
 * The first `n` hits in the reranker's order (unscored ones after, in local order), then the rest.
 * Relevance stays positional: the i-th hit takes the i-th local relevance, so 0..1 and
 * minRelevance keep their meaning.
 */
function reorder(
  hits: readonly SearchHit[],
  n: number,
  scores: { key: string; score: number }[],
  provider: string,
): SearchHit[] {
  const head = hits.slice(0, n);
  const keys = new Set(head.map((h) => h.key));
  const score = new Map<string, number>();
  for (const s of scores) {
    if (!keys.has(s.key) || score.has(s.key))
      throw badResponse(provider, `an unknown or repeated key ${quote(s.key)}`);
    if (!Number.isFinite(s.score))
      throw badResponse(provider, `a score for ${quote(s.key)} that is not finite`);
    score.set(s.key, s.score);
  }
  const scored = head.filter((h) => score.has(h.key)).sort((a, b) => score.get(b.key)! - score.get(a.key)!);
  const order = [...scored, ...head.filter((h) => !score.has(h.key))];
  return [...order.map((h, i) => ({ key: h.key, relevance: head[i]!.relevance })), ...hits.slice(n)];
}

/** Rerank the best local hits remotely; on failure (or fewer than 2 hits) keep the local ranking. */
export async function rerankWithFallback(
  query: string,
  hits: readonly SearchHit[],
  options: RerankFallbackOptions,
): Promise<WithMeta<SearchHit[]>> {
  const { reranker } = options;
  const n = Math.min(options.topN ?? RERANK_DEFAULTS.topN, hits.length);
  if (n < 2) return { value: [...hits], meta: { provider: reranker.id, fallback: false } };
  const candidates = hits.slice(0, n).map((h) => ({ key: h.key, text: options.textOf(h.key) }));
  return withFallback(
    async (signal) => reorder(hits, n, await reranker.rerank(query, candidates, signal), reranker.id),
    [...hits],
    {
      provider: reranker.id,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      onFallback: options.onFallback,
    },
  );
}
