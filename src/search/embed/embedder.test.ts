import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dot, largestFinite, similarities } from './embedder.js';

describe('vector maths', () => {
  it('largestFinite is the top k of a full descending sort, NaN dropped', () => {
    const value = fc.oneof(
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.constant(Number.NaN),
      fc.constant(0.5),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 300 }), fc.integer({ min: 0, max: 120 }), (raw, k) => {
        const values = Float64Array.from(raw);
        const full = values
          .filter((v) => Number.isFinite(v))
          .sort()
          .reverse();
        expect([...largestFinite(values, k)]).toEqual([...full.slice(0, k)]);
      }),
    );
  });

  it('dot and similarities agree with a plain sum, for any length', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 19 }), fc.integer(), (n, seed) => {
        let x = seed;
        const next = (): number => ((x = (x * 1103515245 + 12345) | 0) % 1000) / 1000;
        const a = Float32Array.from({ length: n }, next);
        const b = Float32Array.from({ length: n }, next);
        const plain = a.reduce((s, v, i) => s + v * b[i]!, 0);
        expect(dot(a, b)).toBeCloseTo(plain, 9);
        const [withVector, without] = similarities(a, [b, undefined]);
        expect(withVector).toBeCloseTo(plain, 9);
        expect(without).toBeNaN();
      }),
    );
  });
});
