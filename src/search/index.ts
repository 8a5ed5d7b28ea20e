/** Tool search: a BM25F index with server evidence and exact-name pins, merged multi-step queries, query syntax, and optional embedding fusion. */
export type { SearchDoc, SearchHit, SearchIndex, SearchOptions } from './types.js';
export { buildSearchIndex, type LexicalIndex } from './search-index.js';
export { analyseCatalog, type LexicalState } from './lexical-scorer.js';
export { decodeLexicalState, encodeLexicalState, snapshotKey, SnapshotError } from './snapshot.js';
export { clampLimit, LIMITS, MAX_QUERY_CHARS } from './ranking.js';
export { RANKER_DEFAULTS, type RankerOptions } from './options.js';
export { mergeRankings, type RankedHit } from './merge.js';
export { tokenize } from './tokenize.js';
export {
  createDictionaryTranslator,
  NO_TRANSLATOR,
  type GlossDictionary,
  type Translator,
} from './translator.js';
export {
  CEDICT_TRANSLATOR,
  findCedict,
  glossOfSenses,
  lazyCedictTranslator,
  loadCedict,
  parseCedict,
  type CedictOptions,
} from './cedict.js';
export { parseQuery, searchRequest, type ParsedQuery } from './query-syntax.js';
export { embedAll, type Embedder } from './embedder.js';
export { buildHybridIndex, toolTexts, type HybridIndex, type HybridOptions } from './hybrid.js';
export { FUSION_DEFAULTS, type FusionOptions } from './fusion.js';
export { embeddableToolText, queryEmbeddingText, toolEmbeddingText } from './embedding-text.js';
export { createUseLiteEmbedder, lazyUseLiteEmbedder, USE_LITE } from './use-lite-embedder.js';
export { lazyEmbedder, QUERY_CACHE_SIZE, WARM_UP_TEXT, withQueryCache } from './embedder-wrappers.js';
export { createHashingEmbedder } from './hashing-embedder.js';
export {
  createOpenAiEmbedder,
  OPENAI_EMBEDDER_DEFAULTS,
  type OpenAiEmbedderOptions,
} from './remote-embedder.js';
export {
  createHttpReranker,
  HTTP_RERANKER_DEFAULTS,
  type HttpRerankerOptions,
  type RerankCandidate,
  type Reranker,
} from './remote-reranker.js';
export {
  FALLBACK_DEFAULTS,
  RERANK_DEFAULTS,
  rerankWithFallback,
  withFallback,
  type FallbackOptions,
  type RemoteMeta,
  type RerankFallbackOptions,
  type WithMeta,
} from './remote-fallback.js';
export type { FetchLike } from './remote-http.js';
export {
  ANSWER_TOKENS,
  buildRerankPrompt,
  createLlmReranker,
  MAX_CANDIDATE_CHARS,
  parseRanking,
  type Complete,
  type CompletionRequest,
} from './llm-rerank.js';
export { createOpenAiChatReranker, type OpenAiChatRerankerOptions } from './llm-rerank-openai.js';
export { editDistance } from './typo.js';
export { applyUsagePrior, usageFactor, USAGE_PRIOR_DEFAULTS, type UsagePriorOptions } from './usage-prior.js';
