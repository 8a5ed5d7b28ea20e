// The reranker seam and an HTTP reranker speaking the Cohere/Jina rerank protocol.
import { badResponse, hostOf, isIndex, isRecord, postJson, type FetchLike } from './remote-http.js';

/** One tool offered to a reranker: its key and the text the reranker reads. */
export interface RerankCandidate {
  key: string;
  text: string;
}

/** Scores candidates against a query; plug a remote cross-encoder or search service behind it. */
export interface Reranker {
  /** Provider id, reported in fallback metadata. */
  id: string;
  /** Scores for (some of) the candidates, higher is better; keys are candidates' keys. */
  rerank(
    query: string,
    candidates: RerankCandidate[],
    signal: AbortSignal,
  ): Promise<{ key: string; score: number }[]>;
}

/** Options of createHttpReranker; only `url` is required. */
export interface HttpRerankerOptions {
  /** The full endpoint, e.g. `https://api.cohere.com/v2/rerank` or `https://api.jina.ai/v1/rerank`. */
  url: string;
  /** Sent as `model` when set (Cohere and Jina require it). */
  model?: string | undefined;
  apiKey?: string | undefined;
  timeoutMs?: number;
  fetch?: FetchLike;
}

/** Default of createHttpReranker: 1.5 s per request. */
export const HTTP_RERANKER_DEFAULTS = { timeoutMs: 1500 } as const;

/** Checks `{results: [{index, relevance_score}]}` against `count` documents; returns [index, score] pairs. */
export function parseRerank(provider: string, json: unknown, count: number): [number, number][] {
  const results = isRecord(json) ? json.results : undefined;
  if (!Array.isArray(results)) throw badResponse(provider, 'without a "results" array');
  if (results.length > count)
    throw badResponse(provider, `more results (${results.length}) than documents (${count})`);
  const seen = new Set<number>();
  return results.map((item: unknown, i): [number, number] => {
    const index = isRecord(item) ? item.index : undefined;
    const score = isRecord(item) ? item.relevance_score : undefined;
    if (!isIndex(index, count) || seen.has(index))
      throw badResponse(provider, `a bad or repeated results[${i}].index`);
    if (typeof score !== 'number' || !Number.isFinite(score))
      throw badResponse(provider, `results[${i}].relevance_score that is not a finite number`);
    seen.add(index);
    return [index, score];
  });
}

/**
 * A Reranker that posts `{model?, query, documents, top_n}` and reads
 * `{results: [{index, relevance_score}]}`; its id is `rerank:<host>[/<model>]`.
 */
export function createHttpReranker(options: HttpRerankerOptions): Reranker {
  const timeoutMs = options.timeoutMs ?? HTTP_RERANKER_DEFAULTS.timeoutMs;
  const id = `rerank:${hostOf(options.url)}${options.model ? `/${options.model}` : ''}`;
  const post = { provider: id, apiKey: options.apiKey, timeoutMs, fetch: options.fetch ?? fetch };
  return {
    id,
    async rerank(query, candidates, signal) {
      if (candidates.length === 0) return [];
      const body = {
        ...(options.model ? { model: options.model } : {}),
        query,
        documents: candidates.map((c) => c.text),
        top_n: candidates.length,
      };
      const json = await postJson(options.url, body, { ...post, signal });
      return parseRerank(id, json, candidates.length).map(([index, score]) => ({
        key: candidates[index]!.key,
        score,
      }));
    },
  };
}
