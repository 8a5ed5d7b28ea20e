import { describe, expect, it } from 'vitest';
import { parseSince } from './index.js';

const NOW = Date.parse('2026-01-10T12:00:00Z');

describe('parseSince', () => {
  it.each([
    ['30m', NOW - 30 * 60_000],
    ['24h', NOW - 24 * 3_600_000],
    ['7d', NOW - 7 * 86_400_000],
    ['2w', NOW - 14 * 86_400_000],
    ['2026-01-09T00:00:00Z', Date.parse('2026-01-09T00:00:00Z')],
  ])('reads %s', (text, at) => expect(parseSince(text, NOW)).toBe(at));

  it.each(['yesterday', '5', '3y', '', '-1h'])('refuses %j naming it', (text) => {
    expect(() => parseSince(text, NOW)).toThrow(
      `since must be a duration (30m, 24h, 7d, 2w) or an ISO time, not ${JSON.stringify(text)}`,
    );
  });
});
