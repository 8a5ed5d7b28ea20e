import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DirectExposure } from './direct-exposure.js';

const exposure = (maxTools: number, seed: string[] = []) => {
  const e = new DirectExposure({ maxTools });
  e.seed(seed);
  return e;
};

describe('DirectExposure', () => {
  it('seeds the hot list, trimmed to maxTools from the hottest, listed in sorted order', () => {
    const e = new DirectExposure({ maxTools: 3 });
    expect(e.seed(['s/d', 's/a', 's/c', 's/b'])).toBe(true);
    expect(e.keys()).toEqual(['s/a', 's/c', 's/d']);
    expect(e.has('s/b')).toBe(false);
    expect(e.size).toBe(3);
  });

  it('replaces the set on a new seed, and says whether it changed', () => {
    const e = exposure(3, ['s/a', 's/b']);
    expect(e.seed(['s/b', 's/a'])).toBe(false);
    expect(e.seed(['s/c'])).toBe(true);
    expect(e.keys()).toEqual(['s/c']);
  });

  it('adds found tools and drops the least recently used', () => {
    const e = exposure(3, ['s/a', 's/b', 's/c']); // a hottest, c least
    expect(e.touch(['s/x'])).toBe(true);
    expect(e.keys()).toEqual(['s/a', 's/b', 's/x']);
    expect(e.touch(['s/y'])).toBe(true);
    expect(e.keys()).toEqual(['s/a', 's/x', 's/y']);
  });

  it('renews a used tool, so a later addition drops another', () => {
    const e = exposure(3, ['s/a', 's/b', 's/c']);
    expect(e.touch(['s/c'])).toBe(false);
    expect(e.touch(['s/x'])).toBe(true);
    expect(e.keys()).toEqual(['s/a', 's/c', 's/x']);
  });

  it('returns false when every key is already exposed, whatever the order', () => {
    const e = exposure(3, ['s/a', 's/b']);
    expect(e.touch(['s/b', 's/a', 's/b'])).toBe(false);
    expect(e.touch([])).toBe(false);
    expect(e.keys()).toEqual(['s/a', 's/b']);
  });

  it('keeps the best-ranked results when a search finds more than maxTools', () => {
    const e = exposure(2, ['s/a']);
    expect(e.touch(['s/x', 's/y', 's/z'])).toBe(true);
    expect(e.keys()).toEqual(['s/x', 's/y']);
  });

  it('returns false when new keys come and go within one touch', () => {
    const e = exposure(2, ['s/a', 's/b']);
    expect(e.touch(['s/a', 's/b', 's/x'])).toBe(false);
    expect(e.keys()).toEqual(['s/a', 's/b']);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxTools %j', (maxTools) => {
    expect(() => new DirectExposure({ maxTools })).toThrow(
      `bug: DirectExposure maxTools must be an integer >= 1, got ${maxTools}`,
    );
  });

  it('matches a naive LRU list over any sequence of seeds and touches (property)', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g');
    const op = fc.record({ seed: fc.boolean(), keys: fc.array(key, { maxLength: 6 }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 30 }), (max, ops) => {
        const e = new DirectExposure({ maxTools: max });
        let oracle: string[] = []; // most recent first
        for (const { seed, keys } of ops) {
          const before = [...oracle].sort().join();
          const base = seed ? [] : oracle;
          oracle = [...new Set([...keys, ...base])].slice(0, max);
          const changed = seed ? e.seed(keys) : e.touch(keys);
          expect(changed).toBe([...oracle].sort().join() !== before);
          expect(e.keys()).toEqual([...oracle].sort());
          expect(oracle.every((k) => e.has(k))).toBe(true);
        }
      }),
    );
  });
});
