/** Tool search: a BM25F index with server evidence and exact-name pins, merged multi-step queries, query syntax, and optional embedding fusion. */
export type { Alternative, SearchDoc, SearchHit, SearchIndex, SearchOptions } from './query/types.js';
export { buildSearchIndex, deferredSearchIndex, type LexicalIndex } from './lexical/search-index.js';
export { analyseCatalog, subsetLexicalState, type LexicalState } from './lexical/lexical-scorer.js';
export { ANALYSIS_JOB, type AnalysisInput } from './lexical/analysis-job.js';
export { decodeLexicalState, encodeLexicalState, snapshotKey, SnapshotError } from './lexical/snapshot.js';
export { clampLimit, LIMITS, MAX_QUERY_CHARS } from './rank/ranking.js';
export { RANKER_DEFAULTS, type RankerOptions } from './lexical/options.js';
export { mergeRankings, type RankedHit } from './rank/merge.js';
export { tokenize } from './text/tokenize.js';
export {
  combineTranslators,
  createDictionaryTranslator,
  NO_TRANSLATOR,
  onDictionaryProblem,
  type GlossDictionary,
  type Translator,
} from './text/translator.js';
export {
  CEDICT_RULE_VERSION,
  CEDICT_TRANSLATOR,
  cedictGlossFilePath,
  cedictTable,
  findCedict,
  glossOfSenses,
  lazyCedictTranslator,
  loadCedict,
  openCedictGlossFile,
  parseCedict,
  writeCedictGlossFile,
  type CedictOptions,
} from './text/cedict.js';
export {
  ensureGlossFile,
  glossFileDir,
  glossFileText,
  openGlossFile,
  prepareGlossFiles,
  registerDerivedDictionary,
  useGlossFiles,
  writeGlossFile,
  type DerivedDictionary,
  type GlossFile,
  type GlossFileOptions,
  type GlossTable,
  type JobRunner,
  type PrepareOptions,
} from './text/gloss-file.js';
export { BLOCK_BYTES, openSortedLines, type SortedLines } from './text/sorted-lines.js';
export { decodeDictdNumber, openDictd, parseDictzipHeader, parseFreedictGlosses } from './text/dictd.js';
export {
  createFreedictTranslator,
  detectLanguages,
  DICTD_DIR,
  findFreedict,
  FREEDICT_LANGUAGES,
  FREEDICT_TRANSLATOR,
  glossWord,
  lazyFreedictTranslator,
  type FreedictLanguage,
  type ExtraWordList,
  type FreedictOptions,
} from './text/freedict.js';
export { findDictionaries, type GlossFileState, type InstalledDictionaries } from './text/dictionaries.js';
export {
  APERTIUM_BIDIX,
  APERTIUM_DIR,
  apertiumEntries,
  apertiumTable,
  findApertium,
  transducerPaths,
  writeApertiumGlossFile,
} from './text/apertium.js';
export {
  createEdictTranslator,
  EDICT_TRANSLATOR,
  entriesOfIndex,
  fullWidthKana,
  lazyEdictTranslator,
  withJapanese,
  wordOf,
} from './text/edict.js';
export { isWrittenAs, parseEdictLine, type EdictEntries, type EdictEntry } from './text/edict-entry.js';
export {
  EDICT_FILE,
  EDICT_RULE_VERSION,
  edictGlossFilePath,
  edictTable,
  findEdict,
  inspectEdict,
  openEdictEntries,
  openEdictGlossFile,
  writeEdictGlossFile,
} from './text/edict-file.js';
export {
  dictionaryForms,
  JAPANESE_MAX_LENGTH,
  segmentJapanese,
  type JapaneseWord,
  type Segment,
} from './text/japanese.js';
export { encodeEucJp, indexEdict, type EdictIndex } from './text/edict-index.js';
export { parseQuery, searchRequest, type ParsedQuery } from './query/query-syntax.js';
export { embedAll, type Embedder } from './embed/embedder.js';
export { buildHybridIndex, toolTexts, type HybridIndex, type HybridOptions } from './hybrid/hybrid.js';
export { FUSION_DEFAULTS, type FusionOptions } from './hybrid/fusion.js';
export { embeddableToolText, queryEmbeddingText, toolEmbeddingText } from './embed/embedding-text.js';
export { createUseLiteEmbedder, lazyUseLiteEmbedder, USE_LITE } from './embed/use-lite-embedder.js';
export { lazyEmbedder, QUERY_CACHE_SIZE, WARM_UP_TEXT, withQueryCache } from './embed/embedder-wrappers.js';
export { createHashingEmbedder } from './embed/hashing-embedder.js';
export {
  createOpenAiEmbedder,
  OPENAI_EMBEDDER_DEFAULTS,
  type OpenAiEmbedderOptions,
} from './remote/remote-embedder.js';
export {
  createHttpReranker,
  HTTP_RERANKER_DEFAULTS,
  type HttpRerankerOptions,
  type RerankCandidate,
  type Reranker,
} from './remote/remote-reranker.js';
export {
  FALLBACK_DEFAULTS,
  RERANK_DEFAULTS,
  rerankWithFallback,
  withFallback,
  type FallbackOptions,
  type RemoteMeta,
  type RerankFallbackOptions,
  type WithMeta,
} from './remote/remote-fallback.js';
export type { FetchLike } from './remote/remote-http.js';
export {
  ANSWER_TOKENS,
  buildRerankPrompt,
  createLlmReranker,
  MAX_CANDIDATE_CHARS,
  parseRanking,
  type Complete,
  type CompletionRequest,
} from './remote/llm-rerank.js';
export { createOpenAiChatReranker, type OpenAiChatRerankerOptions } from './remote/llm-rerank-openai.js';
export { editDistance } from './text/typo.js';
export {
  applyUsagePrior,
  usageFactor,
  USAGE_PRIOR_DEFAULTS,
  type UsagePriorOptions,
} from './rank/usage-prior.js';
