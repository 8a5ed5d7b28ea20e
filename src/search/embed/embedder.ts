// The embedder seam and the vector maths the hybrid index needs.

/** Turns texts into unit-length vectors; plug a local model or an HTTP endpoint behind it. */
export interface Embedder {
  /** Model id, persisted with stored vectors so a mismatch can be refused. */
  id: string;
  dimension: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * Loads the model ahead of the first `embed` (a model that loads lazily has one); rejects if it
   * cannot. The hybrid search calls it in the background and answers lexically until it resolves.
   */
  warmUp?(): Promise<void>;
}

/** `embedder.embed(texts)`, refusing an answer with another number of vectors (the message names the embedder). */
export async function embedAll(embedder: Embedder, texts: string[], what = 'texts'): Promise<Float32Array[]> {
  const got = await embedder.embed(texts);
  if (got.length !== texts.length) {
    throw new Error(
      `the embedder "${embedder.id}" returned ${got.length} vectors for ${texts.length} ${what}`,
    );
  }
  return got;
}

/** Scales a vector to unit length in place (a zero vector stays zero) and returns it. */
export function normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

/**
 * Dot product (cosine for unit vectors). Four independent sums let the CPU overlap the additions
 * (one running sum waits on each add): 1.7x faster over 7,000 512-d vectors (docs/history/search-history.md).
 */
export function dot(a: Float32Array, b: Float32Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n = a.length;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += a[i]! * b[i]!;
    s1 += a[i + 1]! * b[i + 1]!;
    s2 += a[i + 2]! * b[i + 2]!;
    s3 += a[i + 3]! * b[i + 3]!;
  }
  for (; i < n; i++) s0 += a[i]! * b[i]!;
  return s0 + s1 + s2 + s3;
}

/** Cosine similarity of `query` with every vector; NaN where a tool has no vector. */
export function similarities(
  query: Float32Array,
  vectors: readonly (Float32Array | undefined)[],
): Float64Array {
  const out = new Float64Array(vectors.length);
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i];
    out[i] = v ? dot(query, v) : Number.NaN;
  }
  return out;
}

/**
 * The `k` largest finite values (NaN dropped), largest first; all of them when fewer. A bounded
 * min-heap, O(n log k): fusion reads only the top 100 cosines, and sorting all 7,000 cost more
 * than the rest of the fusion.
 */
export function largestFinite(values: Float64Array, k: number): Float64Array {
  const heap = new Float64Array(Math.max(0, k));
  let size = 0;
  for (const v of values) {
    if (!Number.isFinite(v) || k <= 0) continue;
    if (size < k) {
      let i = size++;
      heap[i] = v;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent]! <= heap[i]!) break;
        [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
        i = parent;
      }
    } else if (v > heap[0]!) {
      heap[0] = v;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < size && heap[l]! < heap[m]!) m = l;
        if (r < size && heap[r]! < heap[m]!) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        i = m;
      }
    }
  }
  return heap.slice(0, size).sort().reverse();
}

/** The k-th largest (k >= 1) of a descending array; its smallest when shorter, -Infinity when empty. */
export function kth(sorted: Float64Array, k: number): number {
  if (sorted.length === 0) return Number.NEGATIVE_INFINITY;
  return sorted[Math.min(k, sorted.length) - 1]!;
}
