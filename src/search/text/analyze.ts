// Turning text into index terms: tokenize, drop stop words, stem.
import type { Stemmer } from './stem.js';
import { STOP_WORDS } from './stopwords.js';
import { tokenize } from './tokenize.js';

/** Tokens of `text` without stop words (when asked), before stemming. */
export function surfaceWords(text: string, dropStopWords = true): string[] {
  const tokens = tokenize(text);
  return dropStopWords ? tokens.filter((t) => !STOP_WORDS.has(t)) : tokens;
}

/** Index terms of `text`, in order, duplicates kept (they are term frequencies). */
export function analyze(text: string, stem: Stemmer, dropStopWords = true): string[] {
  return surfaceWords(text, dropStopWords).map(stem);
}
