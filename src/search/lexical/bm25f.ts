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

/**
 * An inverted index in flat arrays: term `terms[t]` occurs in documents
 * `docs[offsets[t] .. offsets[t + 1])`, ascending, with the saturated pseudo-frequency
 * tf*(k1+1)/(k1+tf) of each posting in `weights` (query-independent, so precomputed).
 * Flat typed arrays make the index cheap to store and load (snapshot.ts).
 */
export interface PostingsTable {
  /** Number of documents. */
  size: number;
  terms: string[];
  offsets: Int32Array;
  docs: Int32Array;
  weights: Float64Array;
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
}

/** A document as term ids per field (ids index a shared term list), in `Bm25fParams.fields` order. */
export type FieldIds = readonly (readonly number[])[];

/**
 * The postings of `docs` given as term ids: `docs[i]` becomes document number i and `terms[id]`
 * is each id's term. Only terms that occur in a weighted field get postings. Equal to
 * `buildPostings` over the same words, including term order (first occurrence).
 */
export function buildPostingsFromIds(
  docs: readonly FieldIds[],
  terms: readonly string[],
  params: Bm25fParams,
): PostingsTable {
  const fieldCount = params.fields.length;
  const sums = new Array<number>(fieldCount).fill(0);
  for (const doc of docs) for (let f = 0; f < fieldCount; f++) sums[f]! += doc[f]?.length ?? 0;
  const avg = sums.map((x) => (docs.length === 0 ? 1 : Math.max(x / docs.length, 1e-9)));
  const k1 = params.k1;
  const tf = new Float64Array(terms.length); // one document's pseudo-frequencies, reset after it
  const lists = new Array<{ docs: number[]; weights: number[] } | undefined>(terms.length);
  const order: number[] = [];
  const inDoc: number[] = [];
  let total = 0;
  docs.forEach((doc, i) => {
    inDoc.length = 0;
    params.fields.forEach((spec, f) => {
      const ids = doc[f];
      if (!ids || ids.length === 0 || spec.weight === 0) return;
      const inc = spec.weight / (1 - spec.b + (spec.b * ids.length) / avg[f]!);
      for (const t of ids) {
        if (tf[t] === 0) inDoc.push(t);
        tf[t]! += inc;
      }
    });
    for (const t of inDoc) {
      const v = tf[t]!;
      tf[t] = 0;
      let p = lists[t];
      if (!p) {
        p = lists[t] = { docs: [], weights: [] };
        order.push(t);
      }
      p.docs.push(i);
      p.weights.push((v * (k1 + 1)) / (k1 + v));
      total++;
    }
  });
  const offsets = new Int32Array(order.length + 1);
  const flatDocs = new Int32Array(total);
  const weights = new Float64Array(total);
  let at = 0;
  order.forEach((t, k) => {
    const p = lists[t]!;
    offsets[k] = at;
    flatDocs.set(p.docs, at);
    weights.set(p.weights, at);
    at += p.docs.length;
  });
  offsets[order.length] = at;
  return { size: docs.length, terms: order.map((t) => terms[t]!), offsets, docs: flatDocs, weights };
}

/** Assigns each distinct term an id, in first-occurrence order. */
export class TermIds {
  readonly terms: string[] = [];
  private readonly ids = new Map<string, number>();

  id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
    }
    return id;
  }
}

/** The postings of `docs`; `docs[i]` becomes document number i. */
export function buildPostings(docs: readonly FieldTokens[], params: Bm25fParams): PostingsTable {
  const ids = new TermIds();
  const asIds = docs.map((doc) => doc.map((field) => field.map((t) => ids.id(t))));
  return buildPostingsFromIds(asIds, ids.terms, params);
}

/** Build the index; `docs[i]` becomes document number i. */
export function buildBm25f(docs: readonly FieldTokens[], params: Bm25fParams): Bm25fIndex {
  return bm25fIndex(buildPostings(docs, params));
}

/** The index over a postings table (built now or loaded from a snapshot). */
export function bm25fIndex(table: PostingsTable): Bm25fIndex {
  const { size: n, offsets, docs, weights } = table;
  const termIds = new Map<string, number>();
  table.terms.forEach((term, t) => termIds.set(term, t));
  const df = (term: string): number => {
    const t = termIds.get(term);
    return t === undefined ? 0 : offsets[t + 1]! - offsets[t]!;
  };
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
        const t = termIds.get(term);
        if (t === undefined) continue;
        const w = idf(term) * weight;
        if (!(w > 0)) continue;
        for (let j = offsets[t]!; j < offsets[t + 1]!; j++) {
          const d = docs[j]!;
          if (into[d] === 0) touched.push(d);
          into[d]! += w * weights[j]!;
        }
      }
    },
  };
}
