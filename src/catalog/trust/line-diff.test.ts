import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lineDiff } from '../index.js';

describe('lineDiff', () => {
  it('is empty for equal texts', () => {
    expect(lineDiff('a\nb', 'a\nb')).toBe('');
  });

  it('shows a changed line with context, removals first', () => {
    const before = ['name: x', 'description:', '  Old text.', 'inputSchema:', '  {}', 'end'].join('\n');
    const after = ['name: x', 'description:', '  New text.', '  More.', 'inputSchema:', '  {}', 'end'].join(
      '\n',
    );
    expect(lineDiff(before, after, ['approved', 'current']).split('\n')).toEqual([
      '--- approved',
      '+++ current',
      '@@ -1,5 +1,6 @@',
      ' name: x',
      ' description:',
      '-  Old text.',
      '+  New text.',
      '+  More.',
      ' inputSchema:',
      '   {}',
    ]);
  });

  it('splits far-apart changes into hunks', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni';
    const after = 'A\nb\nc\nd\ne\nf\ng\nh\nI';
    expect(lineDiff(before, after, ['1', '2'], 1).split('\n')).toEqual([
      '--- 1',
      '+++ 2',
      '@@ -1,2 +1,2 @@',
      '-a',
      '+A',
      ' b',
      '@@ -8,2 +8,2 @@',
      ' h',
      '-i',
      '+I',
    ]);
  });

  it('keeps every line of both texts, in order (with enough context)', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 12 });
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const before = a.join('\n');
        const after = b.join('\n');
        const body = lineDiff(before, after, ['x', 'y'], 1000).split('\n').slice(3);
        if (before === after) return;
        const side = (skip: string) =>
          body
            .filter((l) => !l.startsWith(skip))
            .map((l) => l.slice(1))
            .join('\n');
        expect(side('+')).toBe(before);
        expect(side('-')).toBe(after);
      }),
    );
  });
});
