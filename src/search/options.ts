// Tunable parts of the lexical ranker, with the defaults the bench chose (docs/search.md).
import type { Bm25fParams } from './bm25f.js';
import { identityStemmer, pluralStemmer, porterStemmer, type Stemmer } from './stem.js';

/** Options of `buildSearchIndex`; every field has a default in RANKER_DEFAULTS. */
export interface RankerOptions {
  /** Which stemmer maps words to index terms. */
  stemmer: 'porter' | 'plural' | 'none';
  /** Drop English stop words from documents and queries. */
  stopWords: boolean;
  /** BM25F field weights, in the order name, title, description, params, server, server description. */
  bm25f: Bm25fParams;
  /**
   * Server evidence, >= 0: weight of the server's max-normalised match (its tools taken together)
   * added to the tool's max-normalised score. 0 = tools alone.
   */
  serverWeight: number;
  /** Split a long query into needs: 'off', 'needs' (each need ranked, merged) or 'both' (whole text too). */
  needs: 'off' | 'needs' | 'both';
  /**
   * Name coverage bonus, >= 0: a tool's score is multiplied by 1 + this * (share of its name and
   * title words the query contains). Tool names are verb_object summaries of what they do.
   */
  nameCoverage: number;
  /** Match query words the catalog never uses to close words it does use (typo.ts). */
  typos: boolean;
  /** Relevance factor (0..1) of an exact copy of a tool ranked above it; 1 = no demotion. */
  copyFactor: number;
  /** Diversification strength lambda, 0..1 (diversify.ts); 0 = rank by score alone. */
  diversity: number;
  /** Expand query words with the general thesaurus (synonyms.ts). */
  synonyms: boolean;
  /** 0..2: how much a query set's weakly matched queries are discounted when merged (0 = not). */
  mergeConfidence: number;
}

// Field weights (>= 0) say how much one occurrence counts relative to a description word;
// b (0..1) is the per-field length normalisation.
export const DEFAULT_BM25F: Bm25fParams = {
  k1: 1.2, // standard BM25 value (Robertson); 1.2..2 works for short fields
  fields: [
    { weight: 3, b: 0.5 }, // name words: the strongest single signal of what a tool does
    { weight: 2, b: 0.5 }, // title
    { weight: 1, b: 0.75 }, // description
    { weight: 1.5, b: 0.3 }, // parameter names
    { weight: 1.5, b: 0.3 }, // server id words
    { weight: 0.3, b: 0.75 }, // server description: shared by all the server's tools, so weak
  ],
};

/**
 * BM25F over one pseudo-document per server: all its tools' names and titles, all their
 * descriptions, the server id, the server description. Length normalisation (b) keeps a server
 * with hundreds of tools from matching everything.
 */
export const SERVER_BM25F: Bm25fParams = {
  k1: 1.2,
  fields: [
    { weight: 2, b: 0.75 }, // tool names and titles
    { weight: 1, b: 0.75 }, // tool descriptions
    { weight: 3, b: 0.3 }, // server id words
    { weight: 1, b: 0.75 }, // server description
  ],
};

/** Weight of a typo correction relative to a typed word, 0..1: a guess counts less than a fact. */
export const TYPO_WEIGHT = 0.5;

/** The defaults. */
export const RANKER_DEFAULTS: RankerOptions = {
  stemmer: 'porter',
  stopWords: true,
  bm25f: DEFAULT_BM25F,
  serverWeight: 0.5,
  needs: 'off',
  mergeConfidence: 0,
  synonyms: true,
  typos: true,
  copyFactor: 0.5,
  diversity: 0,
  nameCoverage: 0.5,
};

/** The stemmer function an option names. */
export function pickStemmer(name: RankerOptions['stemmer']): Stemmer {
  return name === 'porter' ? porterStemmer : name === 'plural' ? pluralStemmer : identityStemmer;
}
