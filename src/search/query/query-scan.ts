// The tokens of the people's search syntax: quoted phrases and words, each with where it starts.
import { CarteError, quote } from '../../errors.js';

/** A phrase (between double quotes) or a word (up to the next space), at 1-based `at`. */
export interface QueryToken {
  kind: 'phrase' | 'word';
  value: string;
  at: number;
}

/** The error of a query, naming it: `query "read OR": "OR" at the end has nothing after it`. */
export function badQuery(input: string, why: string): CarteError {
  return new CarteError('bad_input', `query ${quote(input, 200)}: ${why}`);
}

/**
 * Splits a query into phrases and words. A quote that starts a token opens a phrase, which must
 * close (else bad_input naming where it opened); `+"..."` is a phrase too (phrases are required
 * anyway). A quote inside a word is a literal, as before boolean queries.
 */
export function scanQuery(input: string): QueryToken[] {
  const tokens: QueryToken[] = [];
  let i = 0;
  while (i < input.length) {
    if (/\s/.test(input[i]!)) {
      i++;
      continue;
    }
    const open = input[i] === '"' ? i : input.startsWith('+"', i) ? i + 1 : -1;
    if (open >= 0) {
      const close = input.indexOf('"', open + 1);
      if (close < 0) throw badQuery(input, `the quote at character ${open + 1} is never closed`);
      tokens.push({ kind: 'phrase', value: input.slice(open + 1, close).trim(), at: i + 1 });
      i = close + 1;
      continue;
    }
    let end = i;
    while (end < input.length && !/\s/.test(input[end]!)) end++;
    tokens.push({ kind: 'word', value: input.slice(i, end), at: i + 1 });
    i = end;
  }
  return tokens;
}
