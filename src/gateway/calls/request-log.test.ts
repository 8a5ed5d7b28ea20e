import { describe, expect, it } from 'vitest';
import { atOrAbove, fromServer, LogTaps } from './request-log.js';

describe('atOrAbove', () => {
  it.each([
    ['debug', 'debug', true],
    ['info', 'warning', false],
    ['warning', 'warning', true],
    ['emergency', 'debug', true],
    ['error', 'critical', false],
    ['made-up', 'emergency', true],
  ] as const)('%s against %s: %s', (level, threshold, expected) => {
    expect(atOrAbove(level, threshold)).toBe(expected);
  });
});

describe('LogTaps', () => {
  it("relays a server's messages to the requests in flight to it, each at its level", () => {
    const taps = new LogTaps();
    const heard: string[] = [];
    const untapA = taps.add('a', { level: 'warning', send: (p) => void heard.push(`A ${String(p.data)}`) });
    taps.add('a', { level: 'debug', send: (p) => void heard.push(`B ${String(p.data)}`) });
    taps.add('b', { level: 'debug', send: (p) => void heard.push(`C ${String(p.data)}`) });
    taps.hear('a', { level: 'info', data: 'one' });
    untapA();
    taps.hear('a', { level: 'error', data: 'two' });
    taps.hear('c', { level: 'error', data: 'three' });
    expect(heard).toEqual(['B one', 'B two']);
  });

  it('prefixes the logger with the server id', () => {
    expect(fromServer('fx', { level: 'info', data: 1 })).toEqual({ level: 'info', data: 1, logger: 'fx' });
    expect(fromServer('fx', { level: 'info', logger: 'db', data: 1 })).toMatchObject({ logger: 'fx/db' });
  });
});
