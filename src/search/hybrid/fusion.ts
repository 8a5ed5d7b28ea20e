// Fusing lexical scores with embedding cosines into one candidate list.
import { kth, largestFinite } from '../embed/embedder.js';
import type { Candidates } from '../rank/ranking.js';

/** Fusion settings; see FUSION_DEFAULTS for the measured choices. */
export interface FusionOptions {
  /** 'convex': weighted sum of normalised scores; 'rrf': reciprocal rank fusion. */
  method: 'convex' | 'rrf';
  /** Convex weight of the lexical side, 0..1 (1 = lexical only). */
  lexicalWeight: number;
  /** Cosines are rescaled so the best is 1 and the `vectorFloorRank`-th best is 0 (>= 2). */
  vectorFloorRank: number;
  /** How many tools the vector side alone may add to the lexical candidates (0 = re-rank only). */
  vectorOnly: number;
  /**
   * Adaptive vector weight, > 0 to enable: the vector side's weight (1 - lexicalWeight) is scaled by
   * min(1, (best cosine - 5th best cosine) / this). A query whose nearest tool stands out from the
   * next ones is one the embedder understood; a flat top means it did not. Typical gaps 0.03..0.15.
   */
  adaptiveGap: number;
  /** RRF constant k (Cormack et al. 2009 use 60). */
  rrfK: number;
}

/** Measured on the dev sets (docs/search.md): equal weights, adaptive gap 0.1. */
export const FUSION_DEFAULTS: FusionOptions = {
  method: 'convex',
  lexicalWeight: 0.5,
  vectorFloorRank: 100,
  vectorOnly: 50,
  adaptiveGap: 0.1,
  rrfK: 60,
};

/** Reciprocal rank fusion of the two sides over `touched`. */
function rrf(
  sides: { lex: Float64Array; vec: Float64Array },
  touched: ReadonlySet<number>,
  k: number,
): Float64Array {
  const { lex, vec } = sides;
  const ranks = (s: Float64Array): Map<number, number> =>
    new Map(
      [...touched]
        .filter((i) => s[i]! > 0)
        .sort((a, b) => s[b]! - s[a]! || a - b)
        .map((d, r) => [d, r + 1] as const),
    );
  const lr = ranks(lex);
  const vr = ranks(vec);
  const out = new Float64Array(lex.length);
  for (const i of touched) {
    out[i] = (lr.has(i) ? 1 / (k + lr.get(i)!) : 0) + (vr.has(i) ? 1 / (k + vr.get(i)!) : 0);
  }
  return out;
}

/**
 * Fuse one query's lexical candidates with the cosine of every tool (NaN: the tool has no vector).
 * Lexical scores are max-normalised; cosines rescaled between the best and the floor rank.
 */
export function fuseScores(lexical: Candidates, cos: Float64Array, options: FusionOptions): Candidates {
  const n = cos.length;
  const lex = new Float64Array(n);
  let maxLex = 0;
  for (const i of lexical.touched) maxLex = Math.max(maxLex, lexical.score[i]!);
  for (const i of lexical.touched) lex[i] = maxLex > 0 ? lexical.score[i]! / maxLex : 0;
  // Only ranks up to these are read below (kth of a shorter list is the same as of the full one).
  const sorted = largestFinite(cos, Math.max(options.vectorFloorRank, options.vectorOnly, 5));
  const top = kth(sorted, 1);
  const floor = kth(sorted, options.vectorFloorRank);
  // A tool without a vector (CJK-only text) is neither helped nor hurt: its vector side copies its lexical side.
  const vec = cos.map((c, i) =>
    !Number.isFinite(c) ? lex[i]! : top > floor ? Math.max(0, (c - floor) / (top - floor)) : 0,
  );
  const touched = new Set(lexical.touched);
  const vectorOnly = options.vectorOnly > 0 ? kth(sorted, options.vectorOnly) : Number.POSITIVE_INFINITY;
  cos.forEach((c, i) => {
    if (c >= vectorOnly) touched.add(i);
  });
  if (options.method === 'rrf')
    return { touched: [...touched], score: rrf({ lex, vec }, touched, options.rrfK) };
  let vw = 1 - options.lexicalWeight;
  if (options.adaptiveGap > 0) vw *= Math.min(1, Math.max(0, top - kth(sorted, 5)) / options.adaptiveGap);
  return { touched: [...touched], score: lex.map((l, i) => (1 - vw) * l + vw * vec[i]!) };
}
