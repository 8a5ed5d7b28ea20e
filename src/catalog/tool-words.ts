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
  name: string[];
  title: string[];
  /** The description, cut to DESCRIPTION_CHARS. */
  description: string[];
  params: string[];
}

/** A server's tokens: the last segment of its id (owner prefixes name people) and its description. */
export interface ServerWords {
  id: string[];
  description: string[];
}

/** Characters of a description read: the summary comes first, and long texts cost time. */
export const DESCRIPTION_CHARS = 300;

/** Tokenizes a tool's fields; the description is cut to DESCRIPTION_CHARS. */
export function toolWords(tool: ToolText): ToolWords {
  return {
    name: tokenize(tool.name),
    title: tokenize(tool.title ?? ''),
    description: tokenize((tool.description ?? '').slice(0, DESCRIPTION_CHARS)),
    params: tokenize(tool.paramNames.join(' ')),
  };
}

/** Tokenizes a server's id (its last "/" segment) and description. */
export function serverWords(server: { id: string; description?: string }): ServerWords {
  return {
    id: tokenize(server.id.slice(server.id.lastIndexOf('/') + 1)),
    description: tokenize((server.description ?? '').slice(0, DESCRIPTION_CHARS)),
  };
}
