// A tool's words, tokenized once and shared by the category scores and the tags, as word ids
// (word-table.ts). The tokens are exactly search/text/tokenize.ts's; only their form differs.
import { addWords } from './word-scan.js';

/** What categorisation and tagging read of a tool. */
export interface ToolText {
  name: string;
  title?: string;
  description?: string;
  paramNames: readonly string[];
}

/** A text's tokens as word ids, in order. */
export type WordIds = readonly number[];

/** A tool's tokens per field (lower case, identifiers split: search/text/tokenize.ts). */
export interface ToolWords {
  name: WordIds;
  title: WordIds;
  /** The description, cut to DESCRIPTION_CHARS. */
  description: WordIds;
  params: WordIds;
}

/** A server's tokens: the last segment of its id (owner prefixes name people) and its description. */
export interface ServerWords {
  id: WordIds;
  description: WordIds;
}

/** Characters of a description read: the summary comes first, and long texts cost time. */
export const DESCRIPTION_CHARS = 300;

/** The ids of `tokenize(text)`'s tokens. */
export function wordIds(text: string): number[] {
  const out: number[] = [];
  addWords(text, out);
  return out;
}

/** The ids of `tokenize(texts.join(' '))`'s tokens, without joining: a space ends a word on both paths. */
function wordIdsOfList(texts: readonly string[]): number[] {
  const out: number[] = [];
  for (const text of texts) addWords(text, out);
  return out;
}

/** Tokenizes a tool's fields; the description is cut to DESCRIPTION_CHARS before. */
export function toolWords(tool: ToolText): ToolWords {
  return {
    name: wordIds(tool.name),
    title: wordIds(tool.title ?? ''),
    description: wordIds((tool.description ?? '').slice(0, DESCRIPTION_CHARS)),
    params: wordIdsOfList(tool.paramNames),
  };
}

/** Tokenizes a server's id (its last "/" segment) and description. */
export function serverWords(server: { id: string; description?: string }): ServerWords {
  return {
    id: wordIds(server.id.slice(server.id.lastIndexOf('/') + 1)),
    description: wordIds((server.description ?? '').slice(0, DESCRIPTION_CHARS)),
  };
}
