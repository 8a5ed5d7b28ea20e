import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeRankings, type RankedHit } from './merge.js';

const hits = (...pairs: [string, number][]): RankedHit[] =>
  pairs.map(([key, relevance]) => ({ key, relevance }));

describe('mergeRankings', () => {
  it('puts each query top hit first, in query order', () => {
    const merged = mergeRankings(
      [hits(['a', 1], ['b', 0.9], ['c', 0.8]), hits(['x', 1], ['y', 0.5]), hits(['p', 1])],
      5,
    );
    expect(merged.map((h) => h.key)).toEqual(['a', 'x', 'p', 'b', 'c']);
  });

  it('keeps the best relevance of a tool found by several queries and prefers it on ties', () => {
    const merged = mergeRankings(
      [hits(['a', 1], ['shared', 0.6], ['b', 0.6]), hits(['c', 1], ['shared', 0.7])],
      5,
    );
    expect(merged).toEqual(hits(['a', 1], ['c', 1], ['shared', 0.7], ['b', 0.6]));
  });

  it('returns a single ranking unchanged (up to limit)', () => {
    const one = hits(['a', 1], ['b', 0.5], ['c', 0.2]);
    expect(mergeRankings([one], 2)).toEqual(one.slice(0, 2));
  });

  it('is a max-merge: sorted by best relevance, every key once, at most limit', () => {
    const ranking = fc
      .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { minLength: 1 })
      .map((keys) => keys.map((key, i) => ({ key, relevance: i === 0 ? 1 : 1 / (i + 1) })));
    fc.assert(
      fc.property(
        fc.array(ranking, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 8 }),
        (rankings, limit) => {
          const merged = mergeRankings(rankings, limit);
          const best = new Map<string, number>();
          for (const r of rankings)
            for (const h of r) best.set(h.key, Math.max(best.get(h.key) ?? 0, h.relevance));
          expect(merged.length).toBe(Math.min(limit, best.size));
          expect(new Set(merged.map((h) => h.key)).size).toBe(merged.length);
          for (const h of merged) expect(h.relevance).toBe(best.get(h.key));
          for (let i = 1; i < merged.length; i++)
            expect(merged[i - 1]!.relevance).toBeGreaterThanOrEqual(merged[i]!.relevance);
        },
      ),
    );
  });
});
