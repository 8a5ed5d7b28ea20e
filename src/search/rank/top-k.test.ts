import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topK } from './top-k.js';

describe('topK', () => {
  it('equals a full sort cut to k (score desc, then item asc)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 201, maxLength: 201 }),
        fc.integer({ min: 0, max: 70 }),
        (items, scores, k) => {
          const score = (i: number): number => scores[i]!;
          const oracle = [...items].sort((a, b) => score(b) - score(a) || a - b).slice(0, k);
          expect(topK(items, score, k)).toEqual(oracle);
        },
      ),
    );
  });

  it.each([
    [[], 3, []],
    [[5, 1, 9], 0, []],
    [[5, 1, 9], 2, [9, 5]],
  ])('topK(%j, identity, %i) = %j', (items, k, expected) => {
    expect(topK(items, (i) => i, k)).toEqual(expected);
  });
});
