// Step context: a query set is one request split into steps, so each step is scored together
// with the whole request at a lower weight. A vague step ("get the detailed information") then
// leans towards the tools the rest of the request is about instead of any tool that says "get".
import type { Candidates } from './ranking.js';

/** Candidates with every score divided by the best one (dense, so adding them is cheap). */
export interface NormalisedScores {
  touched: readonly number[];
  score: Float64Array;
}

/** A copy of `c` with every score divided by the best one; zeros dropped. */
export function normaliseCandidates(c: Candidates): NormalisedScores {
  let best = 0;
  for (const i of c.touched) best = Math.max(best, c.score[i] ?? 0);
  const score = new Float64Array(c.score.length);
  const touched: number[] = [];
  if (best <= 0) return { touched, score };
  for (const i of c.touched) {
    const s = c.score[i] ?? 0;
    if (s > 0 && score[i] === 0) {
      score[i] = s / best;
      touched.push(i);
    }
  }
  return { touched, score };
}

/**
 * The step's candidates, max-normalised, plus `weight` times the request's (0..1; 0 = the step
 * alone). Returns fresh arrays: the inputs may be a scorer's reused buffers.
 */
export function addStepContext(step: Candidates, context: NormalisedScores, weight: number): Candidates {
  const own = normaliseCandidates(step);
  if (weight <= 0) return own;
  const { score } = own;
  const touched = own.touched as number[];
  for (const i of context.touched) {
    if (score[i] === 0) touched.push(i);
    score[i]! += weight * context.score[i]!;
  }
  return { touched, score };
}
