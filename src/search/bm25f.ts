// BM25F over an inverted index: per-field weighted term frequencies, saturated once per document.

/** One field's scoring parameters. */
export interface FieldSpec {
  /** Multiplier of a term occurrence in this field, >= 0 (1 = an ordinary description word). */
  weight: number;
  /** Length normalisation, 0..1 (0 = ignore field length, 1 = fully proportional). */
  b: number;
}

/** BM25F parameters. */
export interface Bm25fParams {
  /** Term-frequency saturation, usually 0.5..2: higher lets repeats keep adding score. */
  k1: number;
  fields: readonly FieldSpec[];
}

/** A document as tokens per field, in the order of `Bm25fParams.fields`. */
export type FieldTokens = readonly (readonly string[])[];

interface Postings {
  docs: number[];
  /** Saturated pseudo-frequency tf*(k1+1)/(k1+tf) per posting; query-independent, so precomputed. */
  weights: number[];
}

/** A query term with its weight (1 for a typed word, less for an expansion). */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/** The built inverted index. */
export interface Bm25fIndex {
  readonly size: number;
  /** Inverse document frequency, ln(1 + (N - df + 0.5) / (df + 0.5)); 0 for unknown terms. */
  readonly idf: (term: string) => number;
  /** Number of documents containing `term` in any field. */
  readonly df: (term: string) => number;
  /** Sum of idf * weight * saturated tf per document; only documents with a match are set. */
  score(terms: readonly WeightedTerm[], into: Float64Array, touched: number[]): void;
  /**
   * Group-level score (e.g. per server): for each term, idf * weight * the best saturated tf of any
   * document of the group, summed over terms. `groupOf[doc]` is the doc's group number.
   */
  scoreGroups(terms: readonly WeightedTerm[], groupOf: Int32Array, into: Float64Array): void;
}

function averageLengths(docs: readonly FieldTokens[], fieldCount: number): number[] {
  const sums = new Array<number>(fieldCount).fill(0);
  for (const doc of docs) for (let f = 0; f < fieldCount; f++) sums[f]! += doc[f]?.length ?? 0;
  return sums.map((s) => (docs.length === 0 ? 1 : Math.max(s / docs.length, 1e-9)));
}

/** Pseudo-frequency of every term of one document, BM25F style (Robertson & Zaragoza 2009). */
export function pseudoFrequencies(
  doc: FieldTokens,
  params: Bm25fParams,
  avg: readonly number[],
): Map<string, number> {
  const tf = new Map<string, number>();
  params.fields.forEach((spec, f) => {
    const tokens = doc[f] ?? [];
    if (tokens.length === 0 || spec.weight === 0) return;
    const norm = 1 - spec.b + (spec.b * tokens.length) / avg[f]!;
    const inc = spec.weight / norm;
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + inc);
  });
  return tf;
}

/** Build the index; `docs[i]` becomes document number i. */
export function buildBm25f(docs: readonly FieldTokens[], params: Bm25fParams): Bm25fIndex {
  const avg = averageLengths(docs, params.fields.length);
  const postings = new Map<string, Postings>();
  const k1 = params.k1;
  docs.forEach((doc, i) => {
    for (const [term, tf] of pseudoFrequencies(doc, params, avg)) {
      let p = postings.get(term);
      if (!p) postings.set(term, (p = { docs: [], weights: [] }));
      p.docs.push(i);
      p.weights.push((tf * (k1 + 1)) / (k1 + tf));
    }
  });
  const n = docs.length;
  const df = (term: string): number => postings.get(term)?.docs.length ?? 0;
  const idf = (term: string): number => {
    const d = df(term);
    return d === 0 ? 0 : Math.log(1 + (n - d + 0.5) / (d + 0.5));
  };
  return {
    size: n,
    df,
    idf,
    score(terms, into, touched) {
      for (const { term, weight } of terms) {
        const p = postings.get(term);
        if (!p) continue;
        const w = idf(term) * weight;
        if (!(w > 0)) continue;
        for (let j = 0; j < p.docs.length; j++) {
          const d = p.docs[j]!;
          if (into[d] === 0) touched.push(d);
          into[d]! += w * p.weights[j]!;
        }
      }
    },
    scoreGroups(terms, groupOf, into) {
      const best = new Map<number, number>();
      for (const { term, weight } of terms) {
        const p = postings.get(term);
        if (!p) continue;
        const w = idf(term) * weight;
        if (!(w > 0)) continue;
        best.clear();
        for (let j = 0; j < p.docs.length; j++) {
          const g = groupOf[p.docs[j]!]!;
          const v = p.weights[j]!;
          if (v > (best.get(g) ?? 0)) best.set(g, v);
        }
        for (const [g, v] of best) into[g]! += w * v;
      }
    },
  };
}
