// A small, bounded usage prior: tools the user calls often rank a little higher among equals.
import { CarteError } from '../../errors.js';
import type { SearchHit } from '../query/types.js';

export interface UsagePriorOptions {
  /**
   * The most the prior multiplies a relevance by: 1 + weight. Range 0..0.1; 0 turns it off.
   * Under 0.11 it can never lift a hit over an exact-name pin (pins lead the rest by 1 / 0.9).
   */
  weight: number;
  /** The hot score (recency-weighted calls, see ActivityRepo.hotScores) at which the prior is full. Range >= 1. */
  cap: number;
}

/**
 * 0.05: a tool is lifted over another only when their text relevances are within 5 %, so usage
 * breaks near-ties and never overrides a clearly better match. Cap 20: about 20 calls in the
 * last days (a call now counts 1, a week ago 0.5) give the full 5 %; one call gives 1.1 %.
 */
export const USAGE_PRIOR_DEFAULTS: UsagePriorOptions = { weight: 0.05, cap: 20 };

/** The factor for a hot score: 1 + weight * min(1, log1p(uses) / log1p(cap)), in [1, 1 + weight]. */
export function usageFactor(uses: number, options: UsagePriorOptions = USAGE_PRIOR_DEFAULTS): number {
  if (!(uses > 0)) return 1;
  return 1 + options.weight * Math.min(1, Math.log1p(uses) / Math.log1p(options.cap));
}

/**
 * Multiplies each hit's relevance by its usage factor and re-sorts (ties keep their order). The
 * best relevance is kept at or under 1 by dividing all by it when the prior pushes it over. An
 * empty usage map returns the hits as they came.
 */
export function applyUsagePrior<T extends SearchHit>(
  hits: readonly T[],
  usage: ReadonlyMap<string, number>,
  options: Partial<UsagePriorOptions> = {},
): T[] {
  const o = { ...USAGE_PRIOR_DEFAULTS, ...options };
  if (!(o.weight >= 0 && o.weight <= 0.1) || !(o.cap >= 1)) {
    throw new CarteError(
      'internal',
      `internal error (a bug): the usage prior's weight must be in 0..0.1 and its cap at least 1, not ${o.weight} and ${o.cap}`,
    );
  }
  if (usage.size === 0 || o.weight === 0) return [...hits];
  const nudged = hits.map((h) => ({ ...h, relevance: h.relevance * usageFactor(usage.get(h.key) ?? 0, o) }));
  nudged.sort((a, b) => b.relevance - a.relevance); // stable: equal scores keep the text order
  const top = nudged[0]?.relevance ?? 0;
  if (top > 1) for (const h of nudged) h.relevance /= top;
  return nudged;
}
