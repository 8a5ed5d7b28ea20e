// The public shapes of the search module; the gateway depends on these exact names.

/** One tool as the search index sees it. */
export interface SearchDoc {
  /** "server/name", unique in the catalog. */
  key: string;
  /** Server id. */
  server: string;
  /** Tool name as the upstream lists it. */
  name: string;
  title?: string;
  description?: string;
  /** Top-level property names of the input schema. */
  paramNames?: string[];
  /** The server's own instructions or description, when known. */
  serverDescription?: string;
  /** Intent phrases (from config rules): a BM25F field of their own, read like a description. */
  useCases?: string[];
  /** Free labels (from config rules), matched by `SearchOptions.tags`. */
  tags?: string[];
  /** Categories (from the catalog), matched by `SearchOptions.categories`. */
  categories?: string[];
}

/** One alternative of an OR group: a word (matched like query words: stemmed) or a phrase (like `phrases`). */
export type Alternative = { word: string } | { phrase: string };

/** Options of one search call. */
export interface SearchOptions {
  /** How many hits to return: default 8, clamped to 1..50. */
  limit?: number;
  /** Only this server's tools. */
  server?: string;
  /** Drop hits below this relevance (0..1). */
  minRelevance?: number;
  /** Every hit must contain each phrase (word sequence, case and punctuation ignored). */
  phrases?: string[];
  /** No hit may contain any of these words (matched like query words: stemmed). */
  exclude?: string[];
  /** Every one must be among the tool's tags (case-insensitive). */
  tags?: string[];
  /** The tool must be in at least one of these categories (case-insensitive). */
  categories?: string[];
  /** Every hit must contain each of these words (matched like query words: stemmed). */
  require?: string[];
  /** For each group, every hit must contain at least one of its alternatives. */
  anyOf?: Alternative[][];
  /** Only tools this accepts by key (the caller's visibility, applied before ranking). */
  allowKey?: (key: string) => boolean;
}

/** One ranked result. */
export interface SearchHit {
  key: string;
  /** 0..1; the best hit of a query (or query set) is at or near 1. */
  relevance: number;
}

/** A built, immutable index over a catalog snapshot. */
export interface SearchIndex {
  readonly size: number;
  /** One query, or one query per step of a task answered with one merged ranking. */
  search(query: string | string[], options?: SearchOptions): SearchHit[];
}
