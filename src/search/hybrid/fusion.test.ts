import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUSION_DEFAULTS, fuseScores, type FusionOptions } from './fusion.js';
import { topK } from '../rank/top-k.js';

const lexical = (scores: number[]) => ({
  touched: scores.flatMap((s, i) => (s > 0 ? [i] : [])),
  score: Float64Array.from(scores),
});
const order = (c: { touched: readonly number[]; score: ArrayLike<number> }) =>
  topK(
    c.touched.filter((i) => c.score[i]! > 0),
    (i) => c.score[i]!,
    c.touched.length,
  );
const opts = (o: Partial<FusionOptions>): FusionOptions => ({ ...FUSION_DEFAULTS, vectorFloorRank: 4, ...o });

describe('fuseScores', () => {
  const cos = Float64Array.from([0.1, 0.9, 0.2, 0.3, 0.8, 0.05]);

  it('with lexical weight 1 keeps the lexical order', () => {
    const fused = fuseScores(lexical([3, 1, 2, 0, 0, 0]), cos, opts({ lexicalWeight: 1, vectorOnly: 0 }));
    expect(order(fused)).toEqual([0, 2, 1]);
  });

  it('with lexical weight 0 and no gap damping orders by cosine above the floor', () => {
    const fused = fuseScores(
      lexical([3, 1, 2, 0, 0, 0]),
      cos,
      opts({ lexicalWeight: 0, adaptiveGap: 0, vectorOnly: 3 }),
    );
    expect(order(fused)).toEqual([1, 4, 3]);
  });

  it('lets only the vectorOnly best cosines in without a lexical match', () => {
    const fused = fuseScores(lexical([1, 0, 0, 0, 0, 0]), cos, opts({ vectorOnly: 1 }));
    expect([...fused.touched].sort()).toEqual([0, 1]);
  });

  it('damps the vector side when the best cosine does not stand out (adaptive gap)', () => {
    const flat = Float64Array.from([0.5, 0.5, 0.5, 0.5, 0.5, 0.49]);
    const fused = fuseScores(lexical([1, 0.5, 0, 0, 0, 0]), flat, opts({ adaptiveGap: 0.1, vectorOnly: 0 }));
    expect(Array.from(fused.score).slice(0, 2)).toEqual([1, 0.5]);
  });

  it('treats a tool without a vector (NaN) as neither helped nor hurt', () => {
    const withNaN = Float64Array.from([Number.NaN, 0.9, 0.2, 0.3, 0.8, 0.05]);
    const fused = fuseScores(lexical([2, 0, 0, 0, 0, 0]), withNaN, opts({ adaptiveGap: 0, vectorOnly: 0 }));
    expect(fused.score[0]).toBeCloseTo(1);
  });

  it.each(['convex', 'rrf'] as const)('%s: keeps every lexical candidate and scores are finite', (method) => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: 6, maxLength: 6 }),
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }),
        (lex, c) => {
          const input = lexical(lex);
          const fused = fuseScores(input, Float64Array.from(c), opts({ method }));
          for (const i of input.touched) expect(fused.touched).toContain(i);
          for (const s of Array.from(fused.score)) expect(Number.isFinite(s)).toBe(true);
        },
      ),
    );
  });
});
