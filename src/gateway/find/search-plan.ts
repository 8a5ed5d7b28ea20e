import type { ToolSearchRow } from '../../store/index.js';
import {
  parseQuery,
  searchRequest,
  type Complete,
  type SearchHit,
  type SearchOptions,
} from '../../search/index.js';
import { summarize } from '../menu/summary.js';
import type { SearchResult } from '../shared/types.js';

export interface SearchRequest {
  limit?: number;
  server?: string;
  /** Drop results below this relevance (0..1). */
  minRelevance?: number;
  /** Read the query with the people's syntax: "phrases", server:ID, tag:X, category:X, -word, +word, a OR b. */
  syntax?: boolean;
  /** Bound on the answer's JSON text `{results, omitted?}` in tokens (o200k); absent: no bound. */
  maxTokens?: number;
  /** The caller's own model (MCP sampling), for `search.rerank.provider: sampling`; absent: local order. */
  sample?: Complete;
  /** Cancels the search's remote steps (e.g. the MCP request was cancelled). */
  signal?: AbortSignal;
}

/** The text and options to search with; people's syntax only when asked, agents' text never parsed. */
export function planSearch(
  query: string | string[],
  req: SearchRequest,
): { text: string | string[]; options: SearchOptions } {
  const base: SearchOptions = {
    ...(req.limit ? { limit: req.limit } : {}),
    ...(req.server !== undefined ? { server: req.server } : {}),
    ...(req.minRelevance !== undefined ? { minRelevance: req.minRelevance } : {}),
  };
  if (req.syntax && typeof query === 'string') {
    const { query: text, options } = searchRequest(parseQuery(query), base);
    return { text, options };
  }
  return { text: query, options: base };
}

/** Search hits as results: the catalog's key, names, a one-line summary, rounded relevance. */
export function toResults(
  hits: readonly SearchHit[],
  row: (key: string) => ToolSearchRow | undefined,
): SearchResult[] {
  return hits.flatMap((h) => {
    const t = row(h.key);
    if (!t) return [];
    const result: SearchResult = {
      key: t.key,
      server: t.serverId,
      name: t.name,
      ...(t.title ? { title: t.title } : {}),
      summary: summarize(t.description),
      relevance: Math.round(h.relevance * 1000) / 1000,
    };
    return [result];
  });
}
