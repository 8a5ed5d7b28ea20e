// Token counting for answer budgets (issue 14), with gpt-tokenizer's BPE tables. They are loaded
// on first use only: importing o200k_base takes 400-500 ms and about 35 MB of heap, which no command
// that never counts (search, sync, servers...) should pay at start-up.
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';

/** Encodings a budget can be counted in; o200k_base is GPT-4o's and later models'. */
export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** A loaded encoding. Counts are of the exact text given (for a meta-tool, `content[0].text`). */
export interface Tokenizer {
  readonly encoding: Encoding;
  /** Tokens in `text`. */
  count(text: string): number;
  /** The count when it is at most `limit`, else false; stops encoding once past the limit. */
  within(text: string, limit: number): number | false;
}

// A type-only import: erased at build, so it loads nothing.
type Api = typeof O200k;

// Literal specifiers, so the package's exports map resolves them and nothing else is loaded.
const LOADERS: Record<Encoding, () => Promise<Api>> = {
  o200k_base: () => import('gpt-tokenizer/encoding/o200k_base'),
  cl100k_base: () => import('gpt-tokenizer/encoding/cl100k_base'),
};

// Tool text is untrusted: a description holding "<|endoftext|>" is counted as the plain text it
// is (as a model's API reads it), not refused, which is gpt-tokenizer's default.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

const loaded = new Map<Encoding, Promise<Tokenizer>>();

/** Loads an encoding once per process (the first call pays the import). */
export function loadTokenizer(encoding: Encoding = 'o200k_base'): Promise<Tokenizer> {
  let tokenizer = loaded.get(encoding);
  if (!tokenizer) {
    tokenizer = LOADERS[encoding]().then((api) => ({
      encoding,
      count: (text) => api.countTokens(text, PLAIN_TEXT),
      within: (text, limit) => api.isWithinTokenLimit(text, limit, PLAIN_TEXT),
    }));
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
