// How strongly words point at each category: every distinct word is searched once in a BM25F
// index over the ten category descriptions, and a tool's scores are the sum over its words.
import { buildSearchIndex, NO_TRANSLATOR, type SearchIndex } from '../search/index.js';
import { CATEGORIES, CATEGORY_IDS } from './categories.js';

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

/** Distinct words remembered before the memo starts over (bounds memory, as the stemmer's does). */
const WORD_MEMO_SIZE = 100_000;

/**
 * A remembered word: its scores, the categories they are not 0 for (most words point at one to
 * three, so a text's sum skips the rest), and the last text that counted it (so a text counts it once).
 */
interface WordEntry {
  scores: Float64Array | null;
  nonzero: Uint8Array;
  stamp: number;
}
const NONE = new Uint8Array(0);
const memo = new Map<string, WordEntry>();
let stamp = 0;

/** Whether a token can carry meaning: not generic, not a number, not a single Latin letter. */
function meaningful(word: string): boolean {
  return !GENERIC_WORDS.has(word) && !/^\d+$/.test(word) && !/^[a-z]$/.test(word);
}

/**
 * A word's scores: its BM25F relevance to each category (best = 1) times its BM25 idf over the
 * ten descriptions, so a word that several categories use counts less. Null when no category
 * uses it or the word is not meaningful.
 */
function search(word: string): Float64Array | null {
  const hits = meaningful(word) ? categoryIndex().search(word, { limit: N }) : [];
  if (hits.length === 0) return null;
  const idf = Math.log(1 + (N - hits.length + 0.5) / (hits.length + 0.5));
  const scores = new Float64Array(N);
  for (const hit of hits) scores[POSITION.get(hit.key)!] = idf * hit.relevance;
  return scores;
}

/** A word's memo entry; a catalog repeats the same few thousand words, so each is searched once per process. */
function entry(word: string): WordEntry {
  let e = memo.get(word);
  if (!e) {
    const scores = search(word);
    const nonzero = scores ? Uint8Array.from(CATEGORY_IDS.keys()).filter((c) => scores[c]! > 0) : NONE;
    memo.set(word, (e = { scores, nonzero, stamp: 0 }));
  }
  return e;
}

/** A word's scores over the categories (see `search`), or null. */
export function wordScores(word: string): Float64Array | null {
  return entry(word).scores;
}

/** A field's words and the weight of each of its words. */
export type WeightedField = readonly [words: readonly string[], weight: number];

/**
 * Sum over the distinct words of the fields of weight × word scores, each word counted once with
 * the largest weight of the fields it occurs in (fields are read heaviest first).
 */
export function scoreWords(fields: readonly WeightedField[]): Float64Array {
  // Cleared between texts, never inside one: a word's stamp must survive the text that set it.
  if (memo.size >= WORD_MEMO_SIZE) memo.clear();
  stamp++;
  const total = new Float64Array(N);
  for (const [words, weight] of [...fields].sort((a, b) => b[1] - a[1])) {
    for (const word of words) {
      const e = entry(word);
      if (e.stamp === stamp) continue;
      e.stamp = stamp;
      const s = e.scores!;
      for (const c of e.nonzero) total[c]! += weight * s[c]!;
    }
  }
  return total;
}
