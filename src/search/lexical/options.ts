// Tunable parts of the lexical ranker, with the defaults the bench chose (docs/search.md).
import type { Bm25fParams } from './bm25f.js';
import { CEDICT_TRANSLATOR } from '../text/cedict.js';
import { EDICT_TRANSLATOR, withJapanese } from '../text/edict.js';
import { FREEDICT_TRANSLATOR } from '../text/freedict.js';
import { identityStemmer, pluralStemmer, porterStemmer, type Stemmer } from '../text/stem.js';
import { combineTranslators, type Translator } from '../text/translator.js';

/** Options of `buildSearchIndex`; every field has a default in RANKER_DEFAULTS. */
export interface RankerOptions {
  /** Which stemmer maps words to index terms. */
  stemmer: 'porter' | 'plural' | 'none';
  /** Drop English stop words from documents and queries. */
  stopWords: boolean;
  /**
   * BM25F field weights, in the order name, title, description, params, server id, server
   * description, gloss, use cases.
   */
  bm25f: Bm25fParams;
  /**
   * Server evidence, >= 0: weight of the server's max-normalised match (its tools taken together,
   * server-evidence.ts) added to the tool's max-normalised score. 0 = tools alone.
   */
  serverWeight: number;
  /**
   * Name coverage bonus, >= 0: a tool's score is multiplied by 1 + this * (share of its name and
   * title words the query contains). Tool names are verb_object summaries of what they do.
   */
  nameCoverage: number;
  /** Match query words the catalog never uses to close words it does use (typo.ts). */
  typos: boolean;
  /** Expand query words with the general thesaurus (synonyms.ts). */
  synonyms: boolean;
  /**
   * Step context, 0..1: in a query set (one query per step of a request), each step's
   * max-normalised scores get this times the whole request's scores (step-context.ts). 0 = off.
   */
  stepContext: number;
  /** Relevance factor (0..1) of an exact copy of a tool ranked above it; 1 = no demotion. */
  copyFactor: number;
  /**
   * Glosses texts in other languages into English words (translator.ts): a tool's title and
   * description into the gloss field, a query into extra words. NO_TRANSLATOR turns it off.
   */
  translator: Translator;
}

// Field weights (>= 0) say how much one occurrence counts relative to a description word;
// b (0..1) is the per-field length normalisation. The bench is flat around these values
// (name 2..5, params 1..2, server 0.5..3 all within 0.01 of each other): they are priors.
export const DEFAULT_BM25F: Bm25fParams = {
  k1: 1.2, // standard BM25 value (Robertson); 0.8 and 2 measured no better
  fields: [
    { weight: 3, b: 0.5 }, // name words: the strongest single signal of what a tool does
    { weight: 2, b: 0.5 }, // title
    { weight: 1, b: 0.75 }, // description
    { weight: 1.5, b: 0.3 }, // parameter names
    { weight: 1.5, b: 0.3 }, // server id words
    { weight: 0.3, b: 0.75 }, // server description: shared by all the server's tools, so weak
    { weight: 1, b: 0.75 }, // gloss: English words for the title and description, weighted like the description
    // use cases (rules' intent phrases, docs/menu.md): a person's words for what the tool is for,
    // weighted like a title (2, b 0.5; range >= 0, 0..1). No dev set has them: a prior, not fitted.
    { weight: 2, b: 0.5 },
  ],
};

/** Weight of a typo correction relative to a typed word, 0..1: a guess counts less than a fact. */
export const TYPO_WEIGHT = 0.5;

/**
 * Weight of a query's gloss word relative to a typed word, 0..1: the words of a dictionary's
 * first senses, not the user's own (docs/search.md, "Other languages").
 */
export const GLOSS_WEIGHT = 1;

/** The defaults. */
export const RANKER_DEFAULTS: RankerOptions = {
  stemmer: 'porter',
  stopWords: true,
  bm25f: DEFAULT_BM25F,
  serverWeight: 0.5,
  nameCoverage: 0.5,
  typos: true,
  synonyms: true,
  copyFactor: 0.5,
  stepContext: 0.5,
  translator: combineTranslators(withJapanese(CEDICT_TRANSLATOR, EDICT_TRANSLATOR), FREEDICT_TRANSLATOR),
};

/** The stemmer function an option names. */
export function pickStemmer(name: RankerOptions['stemmer']): Stemmer {
  return name === 'porter' ? porterStemmer : name === 'plural' ? pluralStemmer : identityStemmer;
}
