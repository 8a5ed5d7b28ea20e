// From per-tool scores to hits: limits, exact-name pins, copy demotion, relevance normalisation.
import type { ExactTable } from './exact.js';
import { topK } from './top-k.js';
import type { RankedHit } from './merge.js';
import type { SearchDoc, SearchOptions } from '../query/types.js';

/** Default and bounds of `SearchOptions.limit`. */
export const LIMITS = { default: 8, min: 1, max: 50 } as const;

/** Queries are cut to this many characters (a task text can embed a whole file or an image). */
export const MAX_QUERY_CHARS = 1000;

/** Relevance of scored hits below exact-name pins is scaled by this (0..1) so pins stay on top. */
export const BELOW_PIN_SCALE = 0.9;

/** Clamp a requested limit to LIMITS. */
export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return LIMITS.default;
  return Math.min(LIMITS.max, Math.max(LIMITS.min, Math.floor(limit)));
}

/** What one search call will run: its non-empty queries (cut), the limit and per-query depth. */
export interface SearchPlan {
  queries: string[];
  limit: number;
  /** Hits kept per query: the limit, or twice it when several queries are merged. */
  depth: number;
}

/** Plan a search; undefined when there is nothing to search for. */
export function planSearch(query: string | string[], options: SearchOptions): SearchPlan | undefined {
  const queries = (Array.isArray(query) ? query : [query])
    .filter((q) => q.trim() !== '')
    .map((q) => q.slice(0, MAX_QUERY_CHARS));
  if (queries.length === 0) return undefined;
  const limit = clampLimit(options.limit);
  return { queries, limit, depth: queries.length === 1 ? limit : limit * 2 };
}

/** Tools (by number) with a score each; higher is better, 0 is no match. */
export interface Candidates {
  touched: readonly number[];
  score: ArrayLike<number>;
}

/** How rankCandidates orders and filters one query's candidates. */
export interface RankOptions {
  /** The query text, for exact-name pins. */
  query: string;
  allowed: ((i: number) => boolean) | undefined;
  depth: number;
  /** See RankerOptions.copyFactor. */
  copyFactor: number;
}

/** Catalog-wide facts the ranking needs, computed once per index. */
export interface RankContext {
  docs: readonly SearchDoc[];
  exact: ExactTable;
  /** Tools with the same name and description share a signature number. */
  signature: Int32Array;
}

/** Build the ranking context of a catalog. */
export function buildRankContext(docs: readonly SearchDoc[], exact: ExactTable): RankContext {
  const ids = new Map<string, number>();
  const signature = Int32Array.from(docs, (d) => {
    const key = `${d.name.toLowerCase()}\n${(d.description ?? '').trim()}`;
    if (!ids.has(key)) ids.set(key, ids.size);
    return ids.get(key)!;
  });
  return { docs, exact, signature };
}

/**
 * Multiply the relevance of a copy of a tool ranked above it (same name and description: the same
 * server configured twice, or a fork) by `factor` (0..1; 1 = keep). Returns positions into
 * `ranked`, best first.
 */
function demoteCopies(
  ranked: readonly number[],
  relevance: Float64Array,
  copies: { signature: Int32Array; factor: number },
): number[] {
  const positions = ranked.map((_, j) => j);
  if (copies.factor === 1) return positions;
  const seen = new Set<number>();
  for (let j = 0; j < ranked.length; j++) {
    const sig = copies.signature[ranked[j]!]!;
    if (seen.has(sig)) relevance[j]! *= copies.factor;
    seen.add(sig);
  }
  return positions.sort((a, b) => relevance[b]! - relevance[a]! || a - b);
}

/** Order candidates with exact-name pins first (relevance 1); the rest max-normalised below them. */
export function rankCandidates(ctx: RankContext, candidates: Candidates, options: RankOptions): RankedHit[] {
  const { docs } = ctx;
  const { score } = candidates;
  const allowed = options.allowed ?? (() => true);
  const byScore = (a: number, b: number): number => (score[b] ?? 0) - (score[a] ?? 0) || a - b;
  const pinned = ctx.exact.match(options.query).tiers.flatMap((tier) => tier.filter(allowed).sort(byScore));
  const pinnedSet = new Set(pinned);
  const eligible = candidates.touched.filter((i) => allowed(i) && !pinnedSet.has(i) && (score[i] ?? 0) > 0);
  const rest = topK(eligible, (i) => score[i]!, options.depth * 2);
  const top = rest.length > 0 ? score[rest[0]!]! : 1;
  const scale = pinned.length > 0 ? BELOW_PIN_SCALE : 1;
  const relevance = Float64Array.from(rest, (i) => (scale * score[i]!) / top);
  const order = demoteCopies(rest, relevance, { signature: ctx.signature, factor: options.copyFactor });
  const scored = order.map((j) => ({
    key: docs[rest[j]!]!.key,
    relevance: relevance[j]!,
  }));
  const pins = pinned.map((i) => ({ key: docs[i]!.key, relevance: 1 }));
  return [...pins, ...scored].slice(0, options.depth);
}

/** Drop hits below `min` (when given). */
export function aboveMinimum(hits: RankedHit[], min: number | undefined): RankedHit[] {
  return min === undefined ? hits : hits.filter((h) => h.relevance >= min);
}

/** Whether `options` select tools by themselves: a filter of the query's, not the caller's visibility. */
export function selectsTools(options: SearchOptions): boolean {
  const { server, tags, categories, phrases, exclude, require, anyOf } = options;
  return server !== undefined || [tags, categories, phrases, exclude, require, anyOf].some((f) => f?.length);
}

const byServerThenName = (a: SearchDoc, b: SearchDoc): number =>
  compareText(a.server, b.server) || compareText(a.name, b.name);
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A query of filters only (`server:filesystem`, `tag:web -delete`): the tools they select, by server
 * then name, each at relevance 1 (no words rank them), within the limit. None when nothing filters:
 * an empty query lists nothing.
 */
export function listSelected(
  docs: readonly SearchDoc[],
  allowed: ((i: number) => boolean) | undefined,
  options: SearchOptions,
): RankedHit[] {
  if (!selectsTools(options) || allowed === undefined) return [];
  const selected = docs.filter((_, i) => allowed(i)).sort(byServerThenName);
  const hits = selected.slice(0, clampLimit(options.limit)).map((d) => ({ key: d.key, relevance: 1 }));
  return aboveMinimum(hits, options.minRelevance);
}
