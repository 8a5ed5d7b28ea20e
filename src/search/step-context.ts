// Step context: a query set is one request split into steps, so each step is scored together
// with the whole request at a lower weight. A vague step ("get the detailed information") then
// leans towards the tools the rest of the request is about instead of any tool that says "get".
import type { Candidates } from './ranking.js';

/** Tool number -> score scaled so the best is 1. */
export type NormalisedScores = ReadonlyMap<number, number>;

/** A copy of `c` with every score divided by the best one (empty when nothing matched). */
export function normaliseCandidates(c: Candidates): NormalisedScores {
  let best = 0;
  for (const i of c.touched) best = Math.max(best, c.score[i] ?? 0);
  const out = new Map<number, number>();
  if (best <= 0) return out;
  for (const i of c.touched) {
    const s = c.score[i] ?? 0;
    if (s > 0) out.set(i, s / best);
  }
  return out;
}

/**
 * The step's candidates, max-normalised, plus `weight` times the request's (0..1; 0 = the step
 * alone). Returns fresh arrays: the inputs may be a scorer's reused buffers.
 */
export function addStepContext(step: Candidates, context: NormalisedScores, weight: number): Candidates {
  const scores = new Map(normaliseCandidates(step));
  if (weight > 0) for (const [i, s] of context) scores.set(i, (scores.get(i) ?? 0) + weight * s);
  const touched = [...scores.keys()];
  const score = new Float64Array(step.score.length);
  for (const [i, s] of scores) score[i] = s;
  return { touched, score };
}
