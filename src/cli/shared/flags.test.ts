import { describe, expect, it } from 'vitest';
import { parseDurationFlag } from './flags.js';

describe('parseDurationFlag', () => {
  it.each([
    ['30m', 30 * 60_000],
    ['1m', 60_000],
    ['24h', 24 * 3_600_000],
    ['7d', 7 * 86_400_000],
    ['2w', 14 * 86_400_000],
    [' 90d ', 90 * 86_400_000],
    ['999999m', 999_999 * 60_000],
  ])('%j is %i ms', (text, ms) => {
    expect(parseDurationFlag('--since', text)).toBe(ms);
  });

  it('leaves an absent flag absent', () => {
    expect(parseDurationFlag('--since', undefined)).toBeUndefined();
  });

  it.each(['', '7', 'd', '0d', '7x', '7D', '1.5h', '-3d', '7 d', '7days', '1000000m', 'yesterday'])(
    'refuses %j naming the flag and the value',
    (text) => {
      expect(() => parseDurationFlag('--since', text)).toThrow(
        `--since takes a duration such as 30m, 24h, 7d or 2w, not "${text}"`,
      );
    },
  );

  it('refuses a bare number, as cac passes one', () => {
    expect(() => parseDurationFlag('--since', 7)).toThrow(
      '--since takes a duration such as 30m, 24h, 7d or 2w, not "7"',
    );
  });
});
