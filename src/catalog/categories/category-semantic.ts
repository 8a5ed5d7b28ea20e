// Semantic evidence for categories: the cosine of a tool's sentence vector (the one hybrid search
// caches) to short exemplar phrases of each category, as an option of categorizeServer (off by
// default: docs/menu.md, "Tried and dropped").
import { embedAll, type Embedder } from '../../search/index.js';
import { CATEGORY_IDS } from './categories.js';
import { CATEGORY_EXEMPLARS } from './category-exemplars.js';
import { N } from './category-scores.js';

/** What categorizeServer needs for semantic evidence; vectors are unit length. */
export interface SemanticEvidence {
  /** A tool's vector by tool key; a tool without one gets lexical evidence only. */
  vectors: ReadonlyMap<string, Float32Array>;
  /** Per category, in CATEGORY_IDS order, the vectors of its exemplar phrases. */
  categories: readonly (readonly Float32Array[])[];
  /** Weight of a tool's semantic scores (best = 1) added to its lexical ones. */
  weight: number;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * Per category, the best cosine of `vector` to its exemplars, less the mean over the categories
 * (a sentence embedder gives every pair of texts some similarity), clipped at 0, best = 1.
 */
export function semanticScores(
  vector: Float32Array,
  categories: SemanticEvidence['categories'],
): Float64Array {
  const best = new Float64Array(N);
  for (let c = 0; c < N; c++) best[c] = Math.max(...categories[c]!.map((e) => cosine(vector, e)));
  const mean = best.reduce((a, b) => a + b, 0) / N;
  for (let c = 0; c < N; c++) best[c] = Math.max(0, best[c]! - mean);
  const top = Math.max(...best) || 1;
  for (let c = 0; c < N; c++) best[c]! /= top;
  return best;
}

/** The exemplar vectors of every category (category-exemplars.ts), embedded in one call. */
export async function embedCategoryExemplars(embedder: Embedder): Promise<Float32Array[][]> {
  const texts = CATEGORY_IDS.flatMap((id) => CATEGORY_EXEMPLARS[id]);
  const vectors = await embedAll(embedder, [...texts], 'category exemplars');
  let at = 0;
  return CATEGORY_IDS.map((id) => vectors.slice(at, (at += CATEGORY_EXEMPLARS[id].length)));
}
