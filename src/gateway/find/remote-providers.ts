import type { SearchConfig } from '../../config/index.js';
import {
  createHttpReranker,
  createOpenAiChatReranker,
  createOpenAiEmbedder,
  type Embedder,
} from '../../search/index.js';
import { REMOTE_SEARCH_DEFAULTS, type GatewaySearchOptions } from '../shared/search-options.js';

/**
 * The remote strategy's providers from the config's search section (its `${env:NAME}` values
 * already expanded by the loader): an OpenAI-compatible embedder for the catalog and another
 * for queries (the query deadline as its timeout), and a Cohere/Jina-style reranker.
 */
export function remoteSearchOptions(search: SearchConfig): GatewaySearchOptions {
  const { embeddings, rerank, timeoutMs = REMOTE_SEARCH_DEFAULTS.timeoutMs } = search.remote ?? {};
  const embedder = (requestTimeoutMs: number): Embedder | undefined =>
    embeddings &&
    createOpenAiEmbedder({
      baseUrl: embeddings.url,
      model: embeddings.model,
      apiKey: embeddings.apiKey,
      dimension: embeddings.dimension,
      timeoutMs: requestTimeoutMs,
    });
  const catalogEmbedder = embedder(Math.max(timeoutMs, REMOTE_SEARCH_DEFAULTS.batchTimeoutMs));
  const queryEmbedder = embedder(timeoutMs);
  const reranker =
    rerank && createHttpReranker({ url: rerank.url, model: rerank.model, apiKey: rerank.apiKey, timeoutMs });
  return {
    strategy: 'remote',
    ...(catalogEmbedder ? { embedder: catalogEmbedder } : {}),
    remote: {
      timeoutMs,
      ...(queryEmbedder ? { queryEmbedder } : {}),
      ...(reranker && rerank ? { reranker, topN: rerank.topN } : {}),
    },
  };
}

/**
 * `search.rerank` as gateway options (empty when not configured), for any strategy: the
 * openai-chat reranker built once, or the sampling marker whose model each search brings.
 */
export function llmRerankOptions(search: SearchConfig): Pick<GatewaySearchOptions, 'rerank'> {
  const { rerank } = search;
  if (!rerank) return {};
  const { provider, topN, timeoutMs, url, model, apiKey } = rerank;
  // The config loader has checked that openai-chat has its url and model.
  const reranker =
    provider === 'openai-chat' && url !== undefined && model !== undefined
      ? createOpenAiChatReranker({ baseUrl: url, model, apiKey, timeoutMs })
      : undefined;
  return { rerank: { provider, topN, timeoutMs, ...(reranker ? { reranker } : {}) } };
}
