import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { estimateJsonBytes } from './usage.js';

const jsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

describe('estimateJsonBytes', () => {
  it.each([
    ['an echo result', { content: [{ type: 'text', text: 'Echo: m12345' }] }],
    ['scalars', [0, -1.25, 1e21, true, false, null, '']],
    ['empty containers', { a: [], b: {}, c: [[]] }],
    ['non-ASCII text', { text: '日本語のテキスト'.repeat(200), emoji: '👍🏽' }],
    ['a long ASCII string', { data: 'QUJD'.repeat(100_000) }],
    ['a long non-ASCII string', { text: 'ü'.repeat(5000) }],
    ['64 entries (not sampled)', Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, i]))],
  ])('is exact for %s', (_name, value) => {
    expect(estimateJsonBytes(value)).toBe(jsonBytes(value));
  });

  it('is exact for any JSON without escaped characters and small containers', () => {
    const plain = fc.string({ unit: fc.constantFrom('a', 'Z', '1', ' ', 'é', '中', '😀') });
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        plain,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 8 }),
        fc.dictionary(plain, tie('value'), { maxKeys: 8 }),
      ),
    })).value;
    fc.assert(fc.property(json, (v) => estimateJsonBytes(v) === jsonBytes(v)));
  });

  it('sizes long arrays of similar rows within a few percent', () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'] }));
    const value = { content: [{ type: 'text', text: 'ok' }], structuredContent: { rows } };
    const ratio = estimateJsonBytes(value) / jsonBytes(value);
    expect(ratio).toBeGreaterThan(0.97);
    expect(ratio).toBeLessThan(1.03);
  });

  it('stays bounded on a deep grid (samples one entry per list past its visit budget)', () => {
    const grid = Array.from({ length: 70 }, () =>
      Array.from({ length: 70 }, () => Array.from({ length: 70 }, (_, i) => i)),
    );
    const ratio = estimateJsonBytes(grid) / jsonBytes(grid);
    expect(ratio).toBeGreaterThan(0.9);
    expect(ratio).toBeLessThan(1.1);
  });
});
