// The lexical search index: BM25F over a tool's fields, exact-name pins, merged query sets.
import type { Aspects } from './diversify.js';
import { buildExactTable, type ExactTable } from './exact.js';
import { buildFilters } from './filter.js';
import { buildLexicalScorer } from './lexical-scorer.js';
import { mergeRankings, type RankedHit } from './merge.js';
import { splitNeeds } from './needs.js';
import { RANKER_DEFAULTS, type RankerOptions } from './options.js';
import type { SearchDoc, SearchIndex, SearchOptions } from './types.js';

/** Default and bounds of `SearchOptions.limit`. */
export const LIMITS = { default: 8, min: 1, max: 50 } as const;

/** Queries are cut to this many characters (a task text can embed a whole file or an image). */
export const MAX_QUERY_CHARS = 1000;

/** Relevance of lexical hits below exact-name pins is scaled by this (0..1) so pins stay on top. */
export const BELOW_PIN_SCALE = 0.9;

/** Clamp a requested limit to LIMITS. */
export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return LIMITS.default;
  return Math.min(LIMITS.max, Math.max(LIMITS.min, Math.floor(limit)));
}

/** One query's ranking with how well its best hit matched (see LexicalResult.coverage). */
export interface QueryRanking {
  hits: RankedHit[];
  confidence: number;
}

/** Candidate scores of one query: tools (by number) with a score; higher is better. */
export interface Candidates {
  touched: readonly number[];
  score: ArrayLike<number>;
  /** Matched query terms per tool, for diversification. */
  aspects?: (i: number) => Aspects;
}

/** Candidates re-ranked for diversity (see diversify.ts); later ones keep their order. */
export const DIVERSITY_WINDOW = 30;

/** Order candidates with exact-name pins first; relevance is max-normalised (pins at 1). */
export function rankCandidates(
  docs: readonly SearchDoc[],
  exact: ExactTable,
  query: string,
  candidates: Candidates,
  options: {
    allowed: ((i: number) => boolean) | undefined;
    depth: number;
    copyFactor: number;
    diversity: number;
  },
): RankedHit[] {
  const { score } = candidates;
  const allowed = options.allowed ?? (() => true);
  const byScore = (a: number, b: number): number => (score[b] ?? 0) - (score[a] ?? 0) || a - b;
  const pinned = exact.match(query).tiers.flatMap((tier) => tier.filter(allowed).sort(byScore));
  const pinnedSet = new Set(pinned);
  const rest = candidates.touched
    .filter((i) => allowed(i) && !pinnedSet.has(i) && (score[i] ?? 0) > 0)
    .sort(byScore);
  const top = rest.length > 0 ? score[rest[0]!]! : 1;
  const scale = pinned.length > 0 ? BELOW_PIN_SCALE : 1;
  const lexical = demoteCopies(
    docs,
    rest.slice(0, options.depth * 2),
    (i) => (scale * score[i]!) / top,
    options.copyFactor,
  );
  return [...pinned.map((i) => ({ key: docs[i]!.key, relevance: 1 })), ...lexical].slice(0, options.depth);
}

/**
 * Multiply the relevance of a copy of a tool ranked above it (same name and description: the same
 * server configured twice, or a fork) by `factor` (0..1; 1 = keep), then re-sort.
 */
function demoteCopies(
  docs: readonly SearchDoc[],
  ranked: readonly number[],
  relevance: (i: number) => number,
  factor: number,
): RankedHit[] {
  const seen = new Set<string>();
  const hits = ranked.map((i) => {
    const d = docs[i]!;
    const signature = `${d.name.toLowerCase()}\n${(d.description ?? '').trim()}`;
    const copy = seen.has(signature);
    seen.add(signature);
    return { key: d.key, relevance: relevance(i) * (copy ? factor : 1) };
  });
  return factor === 1 ? hits : hits.sort((a, b) => b.relevance - a.relevance);
}

/** Split queries into needs when asked; every entry is cut to MAX_QUERY_CHARS. */
export function expandQueries(query: string | string[], needs: RankerOptions['needs']): string[] {
  const queries = (Array.isArray(query) ? query : [query]).filter((q) => q.trim() !== '');
  return queries.flatMap((q) => {
    const text = q.slice(0, MAX_QUERY_CHARS);
    if (needs === 'off') return [text];
    const parts = splitNeeds(text);
    if (parts.length === 1) return [text];
    return needs === 'both' ? [text, ...parts] : parts;
  });
}

/** How query rankings are merged. */
export interface MergeOptions {
  /** See RankerOptions.mergeConfidence. */
  confidence: number;
}

/**
 * Merge per-query rankings. With `confidence` > 0 a query whose best hit matched poorly counts
 * less: relevances are scaled by (confidence / best confidence) ** confidence.
 */
export function mergeQueryRankings(
  rankings: readonly QueryRanking[],
  limit: number,
  options: MergeOptions,
): RankedHit[] {
  const best = Math.max(...rankings.map((r) => r.confidence));
  const scaled = rankings.map((r) => {
    const f = best > 0 && options.confidence > 0 ? (r.confidence / best) ** options.confidence : 1;
    return r.hits.map((h) => ({ key: h.key, relevance: h.relevance * f }));
  });
  return mergeRankings(scaled, limit);
}

/** Drop hits below `min` (when given). */
export function aboveMinimum(hits: RankedHit[], min: number | undefined): RankedHit[] {
  return min === undefined ? hits : hits.filter((h) => h.relevance >= min);
}

/** Build an immutable lexical index over `docs` (keys must be unique). */
export function buildSearchIndex(
  docs: readonly SearchDoc[],
  options: Partial<RankerOptions> = {},
): SearchIndex {
  const opts: RankerOptions = { ...RANKER_DEFAULTS, ...options };
  const scorer = buildLexicalScorer(docs, opts);
  const exact = buildExactTable(docs);
  const allowedBy = buildFilters(docs, (text) => scorer.terms(text));
  const merge: MergeOptions = { confidence: opts.mergeConfidence };
  return {
    size: docs.length,
    search(query: string | string[], searchOptions: SearchOptions = {}) {
      const limit = clampLimit(searchOptions.limit);
      const queries = expandQueries(query, opts.needs);
      if (queries.length === 0) return [];
      const depth = queries.length === 1 ? limit : limit * 2;
      const allowed = allowedBy(searchOptions);
      const rankings = queries.map((q) => {
        const result = scorer.score(q);
        const hits = rankCandidates(docs, exact, q, result, {
          allowed,
          depth,
          copyFactor: opts.copyFactor,
          diversity: opts.diversity,
        });
        return { hits, confidence: result.coverage };
      });
      return aboveMinimum(mergeQueryRankings(rankings, limit, merge), searchOptions.minRelevance);
    },
  };
}
