// The lexical search index: BM25F with server evidence, exact-name pins, merged query sets.
import { buildExactTable } from '../rank/exact.js';
import { buildFilters } from '../query/filter.js';
import { buildLexicalScorer, type LexicalState } from './lexical-scorer.js';
import { mergeRankings } from '../rank/merge.js';
import { RANKER_DEFAULTS, type RankerOptions } from './options.js';
import { aboveMinimum, buildRankContext, listSelected, planSearch, rankCandidates } from '../rank/ranking.js';
import { addStepContext, normaliseCandidates } from '../rank/step-context.js';
import type { SearchDoc, SearchIndex, SearchOptions } from '../query/types.js';

/** A lexical index, with the catalog state it was built from (for a snapshot). */
export interface LexicalIndex extends SearchIndex {
  readonly lexicalState: LexicalState;
}

/**
 * Build an immutable lexical index over `docs` (keys must be unique); every search is synchronous.
 * `state`, when given, must be `analyseCatalog(docs, options)` (a snapshot's): it skips the analysis.
 */
export function buildSearchIndex(
  docs: readonly SearchDoc[],
  options: Partial<RankerOptions> = {},
  state?: LexicalState,
): LexicalIndex {
  const opts: RankerOptions = { ...RANKER_DEFAULTS, ...options };
  const scorer = buildLexicalScorer(docs, opts, state);
  const ctx = buildRankContext(docs, buildExactTable(docs));
  const allowedBy = buildFilters(docs, scorer.terms);
  return {
    size: docs.length,
    lexicalState: scorer.state,
    search(query: string | string[], searchOptions: SearchOptions = {}) {
      const plan = planSearch(query, searchOptions);
      if (!plan) return listSelected(docs, allowedBy(searchOptions), searchOptions);
      const rank = { allowed: allowedBy(searchOptions), depth: plan.depth, copyFactor: opts.copyFactor };
      const weight = plan.queries.length > 1 ? opts.stepContext : 0;
      const context = weight > 0 ? normaliseCandidates(scorer.score(plan.queries.join('\n'))) : undefined;
      const rankings = plan.queries.map((q) => {
        const own = scorer.score(q);
        const candidates = context ? addStepContext(own, context, weight) : own;
        return rankCandidates(ctx, candidates, { ...rank, query: q });
      });
      return aboveMinimum(mergeRankings(rankings, plan.limit), searchOptions.minRelevance);
    },
  };
}

/**
 * `buildSearchIndex(docs, options, state)` built at its first search: a catalog's index that only
 * lends its state to callers' subsets (every caller's policy hides something) is never built.
 */
export function deferredSearchIndex(
  docs: readonly SearchDoc[],
  state: LexicalState,
  options: Partial<RankerOptions> = {},
): LexicalIndex {
  let built: LexicalIndex | undefined;
  return {
    size: docs.length,
    lexicalState: state,
    search: (query, searchOptions) =>
      (built ??= buildSearchIndex(docs, options, state)).search(query, searchOptions),
  };
}
