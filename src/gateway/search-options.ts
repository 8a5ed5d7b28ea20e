// What the gateway's search is configured with, and what it reports about itself and each search.
import type { Embedder, RemoteMeta, Reranker } from '../search/index.js';

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
  /** lexical: no embedder; pending: not embedded yet; embedding: under way; ready; degraded: lexical after a failure. */
  state: 'lexical' | 'pending' | 'embedding' | 'ready' | 'degraded';
  /** The model id vectors are cached under (embedder id + recipe). */
  model?: string;
  /** Vectors cached for this model (for every stored tool, visible or not). */
  cachedVectors?: number;
  progress?: EmbedProgress;
  /** Why the embeddings are off (degraded). */
  reason?: string;
  /** remote: the reranker's id, e.g. `rerank:api.jina.ai/jina-reranker-v2-base-multilingual`. */
  rerank?: string;
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

/** The search strategy and its providers (a local model may load lazily on first use). */
export interface GatewaySearchOptions {
  strategy: SearchStrategy;
  /**
   * hybrid: the local model (without one, hybrid degrades to lexical with a warning).
   * remote: the remote model the catalog is embedded with; none means rerank only.
   */
  embedder?: Embedder;
  remote?: RemoteSearchOptions;
  /** Called after each batch of tools embedded (the CLI prints it on stderr). */
  onProgress?: (p: EmbedProgress) => void;
  /** Tools per embedder call (default EMBED_BATCH). */
  batchSize?: number;
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
}
