// How strongly words point at each category: every distinct word is searched once in a BM25F
// index over the ten category descriptions, and a tool's scores are the sum over its words.
import { buildSearchIndex, NO_TRANSLATOR, type SearchIndex } from '../../search/index.js';
import { CATEGORIES, CATEGORY_IDS } from './categories.js';
import type { WordIds } from '../words/tool-words.js';
import { wordCount, wordGeneration, wordOf } from '../words/word-table.js';

/** Number of categories: the length of every score vector. */
export const N = CATEGORY_IDS.length;

/**
 * Words that describe any tool: CRUD verbs, schema and paging words, filler of tool descriptions,
 * with their common inflections (matched exactly: stripping endings would also drop "news").
 * They are dropped from a tool's words before scoring; a category description must not rely on them.
 */
export const GENERIC_WORDS: ReadonlySet<string> = new Set(
  `get gets getting got list lists listed listing create creates created creating add adds added
  adding update updates updated updating delete deletes deleted deleting remove removes removed
  removing set sets setting edit edits edited editing modify modifies modified modifying read reads
  reading write writes writing written retrieve retrieves retrieved retrieving fetch fetches fetched
  fetching return returns returned returning show shows showing shown view views viewing find finds
  found finding check checks checked checking manage manages managed managing run runs running call
  calls called calling use uses used using convert converts converted converting contain contains
  containing support supports supported supporting provide provides provided providing give gives
  given specify specifies specified track tracks tracked tracking follow follows followed following
  filter filters filtered filtering access accesses accessed accessing based perform performs handle
  handles allow allows enable enables
  new id ids type types name names key keys value values item items object objects field fields
  option options parameter parameters param params default optional required string strings number
  numbers integer boolean array limit offset page pages cursor sort order count total information
  info details detail content contents text result results response responses request requests
  query queries input inputs output outputs format formats api apis action actions operation
  operations custom product products public specific available current latest all one multiple
  single user users account accounts source sources mcp server servers tool tools status dictionary
  dict power powered`.split(/\s+/),
);

const POSITION = new Map<string, number>(CATEGORY_IDS.map((id, i) => [`category/${id}`, i]));

let index: SearchIndex | undefined;

/**
 * The category index, built once: ten documents, searched one word at a time, so typo fixes (a
 * tool's rare words would be "corrected" to the few words the descriptions use), synonyms,
 * server evidence and name coverage are off. So is the translator: the category texts are
 * English, and glossing them shifted English tools (pg/backup went from data to infra in
 * categorize.test.ts) and made the first categorisation wait 1-1.6 s for the dictionary.
 */
function categoryIndex(): SearchIndex {
  index ??= buildSearchIndex(
    CATEGORY_IDS.map((id) => ({
      key: `category/${id}`,
      server: 'category',
      name: id,
      title: CATEGORIES[id].label,
      description: CATEGORIES[id].description,
    })),
    { typos: false, synonyms: false, serverWeight: 0, nameCoverage: 0, translator: NO_TRANSLATOR },
  );
  return index;
}

/**
 * Per word id (word-table.ts), once computed: the categories its scores are not 0 for (most words
 * point at one to three, so a text's sum skips the rest) and those scores, as the run of
 * `runLength[id]` entries of nonzeroCategory / nonzeroScore from `runStart[id]` (-1: not computed).
 */
let runStart = new Int32Array(0);
let runLength = new Uint8Array(0);
let nonzeroCategory = new Uint8Array(1024);
let nonzeroScore = new Float64Array(1024);
let nonzeroUsed = 0;
/** Per word id, the last text that counted it (so a text counts it once). */
let lastText = new Int32Array(0);
let text = 0;
/** The word table's generation these arrays are for. */
let tableGeneration = -1;

/** Whether a token can carry meaning: not generic, not a number, not a single Latin letter. */
function meaningful(word: string): boolean {
  return !GENERIC_WORDS.has(word) && !/^\d+$/.test(word) && !/^[a-z]$/.test(word);
}

/**
 * A word's scores: its BM25F relevance to each category (best = 1) times its BM25 idf over the
 * ten descriptions, so a word that several categories use counts less. Null when no category
 * uses it or the word is not meaningful. Not remembered: `fieldScorer` keeps them by word id.
 */
export function searchWordScores(word: string): Float64Array | null {
  const hits = meaningful(word) ? categoryIndex().search(word, { limit: N }) : [];
  if (hits.length === 0) return null;
  const idf = Math.log(1 + (N - hits.length + 0.5) / (hits.length + 0.5));
  const scores = new Float64Array(N);
  for (const hit of hits) scores[POSITION.get(hit.key)!] = idf * hit.relevance;
  return scores;
}

/** Makes the per-id arrays cover every id of the word table, dropping them when it started over. */
function cover(): void {
  if (tableGeneration !== wordGeneration()) {
    tableGeneration = wordGeneration();
    runStart = new Int32Array(0);
    runLength = new Uint8Array(0);
    lastText = new Int32Array(0);
    nonzeroUsed = 0;
  }
  if (wordCount() <= runStart.length) return;
  const size = Math.max(wordCount(), runStart.length * 2, 1024);
  const start = new Int32Array(size).fill(-1);
  start.set(runStart);
  runStart = start;
  const length = new Uint8Array(size);
  length.set(runLength);
  runLength = length;
  const last = new Int32Array(size);
  last.set(lastText);
  lastText = last;
}

/** Computes a word's run of nonzero scores; a catalog repeats the same few thousand words. */
function computeRun(id: number): void {
  const scores = searchWordScores(wordOf(id));
  runStart[id] = nonzeroUsed;
  if (!scores) return;
  if (nonzeroUsed + N > nonzeroScore.length) {
    const category = new Uint8Array(nonzeroScore.length * 2);
    category.set(nonzeroCategory);
    const score = new Float64Array(nonzeroScore.length * 2);
    score.set(nonzeroScore);
    nonzeroCategory = category;
    nonzeroScore = score;
  }
  for (let c = 0; c < N; c++) {
    if (scores[c]! > 0) {
      nonzeroCategory[nonzeroUsed] = c;
      nonzeroScore[nonzeroUsed++] = scores[c]!;
    }
  }
  runLength[id] = nonzeroUsed - runStart[id];
}

/** Scores the word ids of a text's fields (see `fieldScorer`). */
export type FieldScorer = (fields: readonly WordIds[]) => Float64Array;

/**
 * Sum over the distinct words of a text's fields of weight × word scores, each word counted once
 * with the largest weight of the fields it occurs in: `weights[f]` is field f's. Fields are read
 * heaviest first (in field order among equal weights), words in text order: the same additions
 * in the same order as summing over strings, so the same floating-point result.
 */
export function fieldScorer(weights: readonly number[]): FieldScorer {
  const order = weights.map((_, f) => f).sort((a, b) => weights[b]! - weights[a]!); // stable
  return (fields) => {
    cover();
    text++;
    const total = new Float64Array(N);
    for (const f of order) addField(fields[f]!, weights[f]!, total);
    return total;
  };
}

/** Adds weight × scores of the field's words that no heavier field of the text had. */
function addField(words: WordIds, weight: number, total: Float64Array): void {
  for (let i = 0; i < words.length; i++) {
    const id = words[i]!;
    if (lastText[id] === text) continue;
    lastText[id] = text;
    if (runStart[id] === -1) computeRun(id);
    const end = runStart[id]! + runLength[id]!;
    for (let k = runStart[id]!; k < end; k++) total[nonzeroCategory[k]!]! += weight * nonzeroScore[k]!;
  }
}
