// The ranking systems compared by the bench; the baseline always runs in the same process.
import { join } from 'node:path';
import {
  buildHybridIndex,
  buildSearchIndex,
  CEDICT_TRANSLATOR,
  combineTranslators,
  EDICT_TRANSLATOR,
  FREEDICT_TRANSLATOR,
  lazyFreedictTranslator,
  withJapanese,
  createUseLiteEmbedder,
  NO_TRANSLATOR,
  toolTexts,
  USE_LITE,
  type FusionOptions,
  type RankerOptions,
} from '../../src/search/index.js';
import { buildPlainBm25 } from './baseline.js';
import type { System } from './evaluate.js';
import { cachedEmbedder, loadVectorCache, type VectorCache } from './vector-cache.js';

/** Where embedding vectors are cached between runs (bench/out is git-ignored). */
export const VECTOR_CACHE = join(import.meta.dirname, `../out/vectors-${USE_LITE.id}.jsonl`);
let cache: VectorCache | undefined;

function lexical(name: string, options: Partial<RankerOptions> = {}): System {
  return {
    name,
    build: (docs) => {
      const index = buildSearchIndex(docs, options);
      return { search: (q, limit) => index.search(q, { limit }).map((h) => h.key) };
    },
  };
}

function hybrid(
  name: string,
  fusion: Partial<FusionOptions> = {},
  ranker: Partial<RankerOptions> = {},
): System {
  return {
    name,
    build: async (docs) => {
      cache ??= loadVectorCache(VECTOR_CACHE, USE_LITE.dimension);
      const embedder = cachedEmbedder(cache, VECTOR_CACHE, { ...USE_LITE, load: createUseLiteEmbedder });
      const vectors = await embedder.embed(toolTexts(docs));
      const index = await buildHybridIndex(docs, { embedder, vectors, fusion, ranker });
      return { search: async (q, limit) => (await index.search(q, { limit })).map((h) => h.key) };
    },
  };
}

const baseline: System = { name: 'baseline bm25', build: (docs) => buildPlainBm25(docs) };

/** The systems of every run: the baseline, the lexical default, the hybrid default. */
export const MAIN_SYSTEMS: System[] = [baseline, lexical('carte lexical'), hybrid('carte hybrid')];

/** One feature off (or swapped) at a time, against the defaults (`--ablations`). */
export const ABLATION_SYSTEMS: System[] = [
  lexical('lexical -server evidence', { serverWeight: 0 }),
  lexical('lexical -name coverage', { nameCoverage: 0 }),
  lexical('lexical -synonyms', { synonyms: false }),
  lexical('lexical -typos', { typos: false }),
  lexical('lexical -copy demotion', { copyFactor: 1 }),
  lexical('lexical plural stemmer', { stemmer: 'plural' }),
  lexical('lexical no stemmer', { stemmer: 'none' }),
  lexical('lexical -stop words', { stopWords: false }),
  lexical('lexical -translator', { translator: NO_TRANSLATOR }),
  lexical('lexical -freedict', { translator: withJapanese(CEDICT_TRANSLATOR, EDICT_TRANSLATOR) }),
  // FreeDict alone for Spanish (Apertium's list is read only from its gloss file: --gloss-files).
  lexical('lexical -apertium', {
    translator: combineTranslators(
      withJapanese(CEDICT_TRANSLATOR, EDICT_TRANSLATOR),
      lazyFreedictTranslator(undefined, { spanish: false }),
    ),
  }),
  lexical('lexical -edict', { translator: combineTranslators(CEDICT_TRANSLATOR, FREEDICT_TRANSLATOR) }),
  // Kanji of texts with kana through both dictionaries, not EDICT alone (docs/search-languages.md).
  lexical('lexical edict+cedict', {
    translator: combineTranslators(CEDICT_TRANSLATOR, EDICT_TRANSLATOR, FREEDICT_TRANSLATOR),
  }),
  hybrid('hybrid -adaptive gap', { adaptiveGap: 0 }),
  hybrid('hybrid rrf', { method: 'rrf' }),
  lexical('lexical -step context', { stepContext: 0 }),
  hybrid('hybrid -step context', {}, { stepContext: 0 }),
  hybrid('vectors only', { lexicalWeight: 0, adaptiveGap: 0 }),
];
