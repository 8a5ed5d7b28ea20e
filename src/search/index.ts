/** Tool search: tokenisation, a BM25F inverted index with exact-name pins, and merged multi-step queries. */
export type { SearchDoc, SearchHit, SearchIndex, SearchOptions } from './types.js';
export { buildSearchIndex, clampLimit, LIMITS, MAX_QUERY_CHARS } from './search-index.js';
export { RANKER_DEFAULTS, type RankerOptions } from './options.js';
export { mergeRankings, type RankedHit } from './merge.js';
export { tokenize } from './tokenize.js';
export type { Embedder } from './embedder.js';
export { parseQuery, type ParsedQuery } from './query-syntax.js';
