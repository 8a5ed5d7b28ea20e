// The embedder seam and the vector maths the hybrid index needs.

/** Turns texts into unit-length vectors; plug a local model or an HTTP endpoint behind it. */
export interface Embedder {
  /** Model id, persisted with stored vectors so a mismatch can be refused. */
  id: string;
  dimension: number;
  embed(texts: string[]): Promise<Float32Array[]>;
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

/** The k-th largest finite value of `values` (k >= 1), or -Infinity when there are fewer. */
export function kthLargest(values: Float64Array, k: number): number {
  const finite = Array.from(values).filter((v) => Number.isFinite(v));
  if (finite.length < k) return finite.length === 0 ? Number.NEGATIVE_INFINITY : Math.min(...finite);
  finite.sort((a, b) => b - a);
  return finite[k - 1]!;
}
