import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBm25f, type Bm25fParams, type FieldTokens, type WeightedTerm } from './bm25f.js';

const PARAMS: Bm25fParams = {
  k1: 1.2,
  fields: [
    { weight: 3, b: 0.5 },
    { weight: 1, b: 0.75 },
  ],
};

/** Naive oracle: recompute BM25F for every document from scratch, no inverted index. */
function bruteForce(
  docs: readonly FieldTokens[],
  params: Bm25fParams,
  terms: readonly WeightedTerm[],
): number[] {
  const n = docs.length;
  const avg = params.fields.map((_, f) => docs.reduce((s, d) => s + (d[f]?.length ?? 0), 0) / n || 1e-9);
  return docs.map((doc) => {
    let total = 0;
    for (const { term, weight } of terms) {
      const df = docs.filter((d) => d.some((field) => field.includes(term))).length;
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      let tf = 0;
      params.fields.forEach((spec, f) => {
        const field = doc[f] ?? [];
        const count = field.filter((t) => t === term).length;
        if (count > 0) tf += (spec.weight * count) / (1 - spec.b + (spec.b * field.length) / avg[f]!);
      });
      if (tf > 0) total += idf * weight * ((tf * (params.k1 + 1)) / (params.k1 + tf));
    }
    return total;
  });
}

const word = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g');
const field = fc.array(word, { maxLength: 6 });
const doc = fc.tuple(field, field);
const terms = fc.uniqueArray(fc.record({ term: word, weight: fc.constantFrom(1, 0.5, 0.25) }), {
  selector: (t) => t.term,
  maxLength: 4,
});

describe('buildBm25f', () => {
  it('agrees with a brute-force BM25F scan', () => {
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 12 }), terms, (docs, query) => {
        const index = buildBm25f(docs, PARAMS);
        const scores = new Float64Array(docs.length);
        const touched: number[] = [];
        index.score(query, scores, touched);
        const expected = bruteForce(docs, PARAMS, query);
        expected.forEach((e, i) => expect(scores[i]).toBeCloseTo(e, 9));
        expect(new Set(touched)).toEqual(new Set(expected.flatMap((e, i) => (e > 0 ? [i] : []))));
        expect(touched.length).toBe(new Set(touched).size);
      }),
    );
  });

  it('scores a rare term above a common one', () => {
    const index = buildBm25f(
      [
        [['x'], ['common']],
        [['y'], ['common']],
        [['z'], ['common', 'rare']],
      ],
      PARAMS,
    );
    expect(index.idf('rare')).toBeGreaterThan(index.idf('common'));
    expect(index.idf('absent')).toBe(0);
    expect(index.df('common')).toBe(3);
  });

  it('weights a name occurrence above a description occurrence', () => {
    const index = buildBm25f(
      [
        [['weather'], ['other']],
        [['other'], ['weather']],
      ],
      PARAMS,
    );
    const scores = new Float64Array(2);
    index.score([{ term: 'weather', weight: 1 }], scores, []);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
  });
});
