// A tool's words, tokenized once and shared by the category scores and the tags.
import { tokenize } from '../search/index.js';

/** What categorisation and tagging read of a tool. */
export interface ToolText {
  name: string;
  title?: string;
  description?: string;
  paramNames: readonly string[];
}

/** A tool's tokens per field (lower case, identifiers split: search/tokenize.ts). */
export interface ToolWords {
  name: readonly string[];
  title: readonly string[];
  /** The description, cut to DESCRIPTION_CHARS. */
  description: readonly string[];
  params: readonly string[];
}

/** A server's tokens: the last segment of its id (owner prefixes name people) and its description. */
export interface ServerWords {
  id: readonly string[];
  description: readonly string[];
}

/** Characters of a description read: the summary comes first, and long texts cost time. */
export const DESCRIPTION_CHARS = 300;

/** Distinct field texts whose tokens are remembered before the memo starts over (bounds memory). */
const TOKEN_MEMO_SIZE = 50_000;
const tokenMemo = new Map<string, readonly string[]>();

/**
 * A text's tokens, remembered: a re-listing recomputes its whole server, whose unchanged tools
 * repeat their texts, and catalogs repeat descriptions and parameter lists across servers (a
 * quarter of the big bench catalog's descriptions, half its parameter lists).
 */
function tokens(text: string): readonly string[] {
  let words = tokenMemo.get(text);
  if (!words) {
    if (tokenMemo.size >= TOKEN_MEMO_SIZE) tokenMemo.clear();
    tokenMemo.set(text, (words = tokenize(text)));
  }
  return words;
}

/** Forgets every remembered text's tokens: for benchmarks that time tokenizing. */
export function clearTokenMemo(): void {
  tokenMemo.clear();
}

/** Tokenizes a tool's fields; the description is cut to DESCRIPTION_CHARS. */
export function toolWords(tool: ToolText): ToolWords {
  return {
    name: tokens(tool.name),
    title: tokens(tool.title ?? ''),
    description: tokens((tool.description ?? '').slice(0, DESCRIPTION_CHARS)),
    params: tokens(tool.paramNames.join(' ')),
  };
}

/** Tokenizes a server's id (its last "/" segment) and description. */
export function serverWords(server: { id: string; description?: string }): ServerWords {
  return {
    id: tokenize(server.id.slice(server.id.lastIndexOf('/') + 1)),
    description: tokenize((server.description ?? '').slice(0, DESCRIPTION_CHARS)),
  };
}
