// Stemmers: map inflected English words to a shared index term.
import { stemmer as porter } from 'stemmer';

/** Maps one lower-case word to its index term. */
export type Stemmer = (word: string) => string;

/** No stemming. */
export const identityStemmer: Stemmer = (word) => word;

/** Plural stripping only (Harman's S-stemmer, 1991): safe, but misses verb forms. */
export const pluralStemmer: Stemmer = (word) => {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && !/[ae]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && !/[aeo]es$/.test(word)) return word.slice(0, -1);
  if (word.endsWith('s') && !/[us]s$/.test(word)) return word.slice(0, -1);
  return word;
};

const ASCII_WORD = /^[a-z]+$/;

/** Distinct words remembered by porterStemmer before its memo starts over (bounds memory). */
const PORTER_MEMO_SIZE = 100_000;
const porterMemo = new Map<string, string>();

/**
 * Porter's stemmer (1980) for ASCII words; numbers, CJK bigrams and other scripts pass unchanged.
 * Memoised: a catalog repeats the same few thousand words, and stemming each occurrence again
 * was a large share of building the index.
 */
export const porterStemmer: Stemmer = (word) => {
  let stem = porterMemo.get(word);
  if (stem !== undefined) return stem;
  stem = ASCII_WORD.test(word) && word.length > 2 ? porter(word) : word;
  if (porterMemo.size >= PORTER_MEMO_SIZE) porterMemo.clear();
  porterMemo.set(word, stem);
  return stem;
};
