import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyUsagePrior, usageFactor, USAGE_PRIOR_DEFAULTS } from '../index.js';

const hits = (...pairs: [string, number][]) => pairs.map(([key, relevance]) => ({ key, relevance }));
const keys = (list: { key: string }[]) => list.map((h) => h.key);

describe('applyUsagePrior', () => {
  it('breaks a tie between equal text matches in favour of the more used tool', () => {
    const ranked = hits(['a/read', 1], ['b/read', 0.8], ['c/read', 0.8], ['d/read', 0.8]);
    const usage = new Map([
      ['c/read', 3],
      ['d/read', 40],
    ]);
    expect(keys(applyUsagePrior(ranked, usage))).toEqual(['a/read', 'd/read', 'c/read', 'b/read']);
  });

  it('never lifts a tool over a clearly better text match, however much it is used', () => {
    const ranked = hits(['a/best', 0.9], ['b/used', 0.81]); // 1.11x apart
    const usage = new Map([['b/used', 1e9]]);
    expect(keys(applyUsagePrior(ranked, usage))).toEqual(['a/best', 'b/used']);
  });

  it('keeps exact-name pins (relevance 1) above the rest (at most 0.9) at the largest weight', () => {
    const ranked = hits(['pin/x', 1], ['used/y', 0.9]);
    const usage = new Map([['used/y', 1e6]]);
    expect(keys(applyUsagePrior(ranked, usage, { weight: 0.1 }))).toEqual(['pin/x', 'used/y']);
  });

  it('keeps the best relevance at or under 1', () => {
    const out = applyUsagePrior(hits(['a', 1], ['b', 0.5]), new Map([['a', 1e6]]));
    expect(out.map((h) => h.relevance)).toEqual([1, 0.5 / 1.05]);
  });

  it.each([
    [0, 1],
    [-3, 1],
    [Number.NaN, 1],
    [20, 1.05],
    [1e9, 1.05],
  ])('usageFactor(%s) is %s', (uses, factor) => {
    expect(usageFactor(uses)).toBeCloseTo(factor, 12);
  });

  it('refuses a weight that could lift a hit over a pin', () => {
    expect(() => applyUsagePrior([], new Map(), { weight: 0.2 })).toThrow(
      "internal error (a bug): the usage prior's weight must be in 0..0.1 and its cap at least 1, not 0.2 and 20",
    );
  });

  const ranking = fc
    .uniqueArray(
      fc.tuple(
        fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
      ),
      {
        selector: ([k]) => k,
        maxLength: 8,
      },
    )
    .map((pairs) => hits(...pairs).sort((x, y) => y.relevance - x.relevance));
  const usageMap = fc
    .dictionary(
      fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
      fc.double({ min: 0, max: 1e4, noNaN: true }),
    )
    .map((d) => new Map(Object.entries(d)));

  it('an empty usage map leaves the ranking and the scores identical', () => {
    fc.assert(
      fc.property(ranking, (ranked) => {
        expect(applyUsagePrior(ranked, new Map())).toEqual(ranked);
      }),
    );
  });

  it('reorders only hits within 1 + weight of each other, and keeps every hit', () => {
    fc.assert(
      fc.property(ranking, usageMap, (ranked, usage) => {
        const out = applyUsagePrior(ranked, usage);
        expect([...keys(out)].sort()).toEqual([...keys(ranked)].sort());
        const before = new Map(ranked.map((h) => [h.key, h.relevance]));
        for (let i = 0; i < out.length; i++) {
          for (let j = i + 1; j < out.length; j++) {
            // out[i] ranks above out[j]: its text relevance was not clearly worse.
            const above = before.get(out[i]!.key)!;
            const below = before.get(out[j]!.key)!;
            expect(above * (1 + USAGE_PRIOR_DEFAULTS.weight)).toBeGreaterThanOrEqual(below);
          }
        }
        expect(out[0]?.relevance ?? 0).toBeLessThanOrEqual(1);
      }),
    );
  });
});
