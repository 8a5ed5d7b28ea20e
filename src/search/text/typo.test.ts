import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTypoCorrector, editDistance } from './typo.js';

/** Naive oracle: full optimal-string-alignment table, no cap, no early exit. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}

describe('editDistance', () => {
  it.each([
    ['browser', 'broswer', 1],
    ['calculate', 'caculate', 1],
    ['trending', 'treending', 1],
    ['kitten', 'sitting', 3],
    ['same', 'same', 0],
  ])('%s ~ %s = %i', (a, b, d) => expect(editDistance(a, b, 3)).toBe(d));

  it('agrees with a full OSA table, capped at max + 1', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 7 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        expect(editDistance(a, b, max)).toBe(Math.min(osa(a, b), max + 1));
      }),
    );
  });
});

describe('buildTypoCorrector', () => {
  const corrector = buildTypoCorrector(
    new Map([
      ['browser', 5],
      ['calculate', 3],
      ['calculator', 2],
      ['trending', 4],
      ['components', 6],
      ['weather', 9],
    ]),
  );

  it.each([
    ['broswer', ['browser']],
    ['caculate', ['calculate']],
    ['treending', ['trending']],
    ['compoents', ['components']],
    ['weather', []], // known words are never corrected
    ['wether', ['weather']],
    ['xyzzy', []],
    ['cat', []], // too short to guess
    ['rowser', []], // typos rarely hit the first letter, so it is kept
  ])('%s -> %j', (word, expected) => expect(corrector.correct(word)).toEqual(expected));
});
