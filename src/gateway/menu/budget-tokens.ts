// Token counting for answer budgets (issue 14) and the tokens-saved statistic, exactly as
// gpt-tokenizer counts but over a compact table (bpe-ranks.ts, bpe-count.ts): gpt-tokenizer's own
// o200k_base module builds ~200k strings and Map entries, 45-50 MiB of RSS and 400-500 ms
// (issue 28 item 5). The ranks and the split regex still come from the installed gpt-tokenizer,
// read on first use only, so no command that never counts pays for them.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { BpeCounter } from './bpe-count.js';
import { readRankTable } from './bpe-ranks.js';

/** Encodings a budget can be counted in; o200k_base is GPT-4o's and later models'. */
export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** A loaded encoding. Counts are of the exact text given (for a meta-tool, `content[0].text`). */
export interface Tokenizer {
  readonly encoding: Encoding;
  /** Tokens in `text`. */
  count(text: string): number;
  /** The count when it is at most `limit`, else false; stops counting once past the limit. */
  within(text: string, limit: number): number | false;
}

// Tool text is untrusted: a description holding "<|endoftext|>" is counted as the plain text it
// is (as a model's API reads it), not refused and not as one special token.
async function splitRegex(encoding: Encoding): Promise<RegExp> {
  const constants = await import('gpt-tokenizer/encodingParams/constants');
  return encoding === 'o200k_base' ? constants.O200K_TOKEN_SPLIT_REGEX : constants.CL100K_TOKEN_SPLIT_REGEX;
}

/** The installed gpt-tokenizer's rank file for `encoding`. */
export function rankFilePath(encoding: Encoding): string {
  const pkg = createRequire(import.meta.url).resolve('gpt-tokenizer/package.json');
  return join(dirname(pkg), 'esm', 'bpeRanks', `${encoding}.js`);
}

async function buildTokenizer(encoding: Encoding): Promise<Tokenizer> {
  const split = await splitRegex(encoding);
  const counter = new BpeCounter(readRankTable(rankFilePath(encoding)), split);
  return {
    encoding,
    count: (text) => counter.count(text),
    within: (text, limit) => {
      const n = counter.count(text, limit);
      return n > limit ? false : n;
    },
  };
}

const loaded = new Map<Encoding, Promise<Tokenizer>>();

/** Loads an encoding once per process (the first call reads its ranks). */
export function loadTokenizer(encoding: Encoding = 'o200k_base'): Promise<Tokenizer> {
  let tokenizer = loaded.get(encoding);
  if (!tokenizer) {
    tokenizer = buildTokenizer(encoding);
    // A failed load (a broken install) is retried by the next call rather than cached.
    tokenizer.catch(() => loaded.delete(encoding));
    loaded.set(encoding, tokenizer);
  }
  return tokenizer;
}

/** Tokens in `text` under `encoding` (o200k_base by default). */
export async function countTokens(text: string, encoding: Encoding = 'o200k_base'): Promise<number> {
  return (await loadTokenizer(encoding)).count(text);
}
