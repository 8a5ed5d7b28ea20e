// What the gateway's search is configured with, and what it reports about itself and each search.
import type { Embedder, RemoteMeta, Reranker } from '../../search/index.js';

/**
 * How `searchToolsAsync` ranks: lexical (the default), lexical fused with a local embedding
 * model (hybrid), or remote providers (a remote embedder in the hybrid's place and/or a reranker).
 */
export const SEARCH_STRATEGIES = ['lexical', 'hybrid', 'remote'] as const;
export type SearchStrategy = (typeof SEARCH_STRATEGIES)[number];

/** Embedding progress after each batch: `done` of `total` tools that had no cached vector. */
export interface EmbedProgress {
  done: number;
  total: number;
}

/** What `carte doctor` shows for search. */
export interface SearchStatus {
  strategy: SearchStrategy;
  /**
   * lexical: no embedder; pending: not started; loading: reading vectors, loading the model;
   * embedding: embedding tools; ready; degraded: lexical after a failure, until the next attempt;
   * retrying: an attempt after a failure is under way (see find/hybrid-health.ts).
   */
  state: EmbeddingsState['state'];
  /** The model id vectors are cached under (embedder id + recipe). */
  model?: string;
  /** Vectors cached for this model (for every stored tool, visible or not). */
  cachedVectors?: number;
  progress?: EmbedProgress;
  /** Why the embeddings are off (degraded, retrying: the last failure). */
  reason?: string;
  /** degraded, retrying: failures since the embeddings last worked. */
  failures?: number;
  /** degraded: milliseconds until the next attempt may start (the next use after that starts it). */
  retryInMs?: number;
  /** remote: the reranker's id, e.g. `rerank:api.jina.ai/jina-reranker-v2-base-multilingual`. */
  rerank?: string;
}

/** The embeddings' state as a search saw it (`SearchMeta.embeddings`, hybrid strategy). */
export interface EmbeddingsState {
  state: 'lexical' | 'pending' | 'loading' | 'embedding' | 'ready' | 'degraded' | 'retrying';
  failures?: number;
  retryInMs?: number;
}

/** Defaults of the remote strategy (REMOTE_SEARCH_DEFAULTS.timeoutMs is the 1.5 s). */
export const REMOTE_SEARCH_DEFAULTS = {
  /** Deadline of each remote step of one search. */
  timeoutMs: 1500,
  /** Local hits sent to the reranker. */
  topN: 20,
  /** After embedding the catalog failed, answer lexically this long before trying again. */
  retryMs: 60_000,
  /** Per request when embedding the catalog (batches of 64 texts take longer than one query). */
  batchTimeoutMs: 30_000,
} as const;

/** The remote strategy's providers; at least one of `queryEmbedder` (with `embedder`) or `reranker`. */
export interface RemoteSearchOptions {
  /** The remote model again, with the query deadline as its per-request timeout. */
  queryEmbedder?: Embedder;
  /** Reorders the best local hits of each single-query search. */
  reranker?: Reranker;
  topN?: number;
  timeoutMs?: number;
  retryMs?: number;
}

/**
 * The LLM reranker (docs/search-providers.md, "LLM rerank"). `sampling` has no reranker of its own: each
 * search brings the caller's `sample` (the MCP client's model), and without one keeps the local order.
 */
export interface LlmRerankOptions {
  provider: 'sampling' | 'openai-chat';
  /** openai-chat: the chat reranker built from the config. */
  reranker?: Reranker;
  /** Local hits the model reorders. */
  topN: number;
  /** Deadline of the model's answer. */
  timeoutMs: number;
}

/** The search strategy and its providers (a local model may load lazily on first use). */
export interface GatewaySearchOptions {
  strategy: SearchStrategy;
  /**
   * hybrid: the local model (without one, hybrid degrades to lexical with a warning).
   * remote: the remote model the catalog is embedded with; none means rerank only.
   */
  embedder?: Embedder;
  remote?: RemoteSearchOptions;
  /** `search.rerank`: a chat model reorders the best hits of every single-query search, whatever the strategy. */
  rerank?: LlmRerankOptions;
  /** Called after each batch of tools embedded (the CLI prints it on stderr). */
  onProgress?: (p: EmbedProgress) => void;
  /** Tools per embedder call (default EMBED_BATCH). */
  batchSize?: number;
  /** hybrid: backoff after a failure (default HYBRID_RETRY; remote uses `remote.retryMs`). */
  retry?: { baseMs: number; capMs: number };
}

/**
 * How one search was answered: the configured strategy and each step beyond the lexical ranking
 * (the embeddings, then the reranker), with `fallback: true` and the reason when a step's
 * result was not used. `fallback` is true when any step fell back.
 */
export interface SearchMeta {
  strategy: SearchStrategy;
  fallback: boolean;
  steps: RemoteMeta[];
  /** hybrid: the local model's state when the search ran (loading, degraded, retrying: answered lexically). */
  embeddings?: EmbeddingsState;
}
