// The embedder seam and the vector maths the hybrid index needs.

/** Turns texts into unit-length vectors; plug a local model or an HTTP endpoint behind it. */
export interface Embedder {
  /** Model id, persisted with stored vectors so a mismatch can be refused. */
  id: string;
  dimension: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** Scales a vector to unit length in place (a zero vector stays zero) and returns it. */
export function normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

/** Dot product (cosine for unit vectors). */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Cosine similarity of `query` with every vector; NaN where a tool has no vector. */
export function similarities(
  query: Float32Array,
  vectors: readonly (Float32Array | undefined)[],
): Float64Array {
  const out = new Float64Array(vectors.length);
  vectors.forEach((v, i) => {
    out[i] = v ? dot(query, v) : Number.NaN;
  });
  return out;
}

/** Finite values sorted from largest to smallest (NaN dropped). */
export function sortedDescending(values: Float64Array): Float64Array {
  return values
    .filter((v) => Number.isFinite(v))
    .sort()
    .reverse();
}

/** The k-th largest (k >= 1) of a descending array; its smallest when shorter, -Infinity when empty. */
export function kth(sorted: Float64Array, k: number): number {
  if (sorted.length === 0) return Number.NEGATIVE_INFINITY;
  return sorted[Math.min(k, sorted.length) - 1]!;
}
