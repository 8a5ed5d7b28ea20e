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

/** Porter's stemmer (1980) for ASCII words; numbers, CJK bigrams and other scripts pass unchanged. */
export const porterStemmer: Stemmer = (word) =>
  ASCII_WORD.test(word) && word.length > 2 ? porter(word) : word;
