import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSortedLines } from '../index.js';

const dir = mkdtempSync(join(tmpdir(), 'carte-sorted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const keyOf = (line: string): string => line.split('\t')[0]!.toLowerCase();

/** Writes `lines` sorted by key (stable: equal keys keep their order) and opens them with tiny blocks. */
function open(lines: string[], blockBytes: number) {
  const path = join(dir, `f${Math.random().toString(36).slice(2)}`);
  const sorted = [...lines].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  writeFileSync(path, sorted.map((l) => `${l}\n`).join(''));
  return { file: openSortedLines(path, keyOf, blockBytes), sorted };
}

describe('openSortedLines', () => {
  it('finds every line of a key, across blocks, and nothing for a missing key', () => {
    const lines = [
      'Datei\tfile',
      'datei\tdata file',
      'datei\tthird',
      'lesen\tread',
      'zz\tlast',
      '天气\tweather',
    ];
    const { file } = open(lines, 8);
    expect(file.find('datei')).toEqual(['Datei\tfile', 'datei\tdata file', 'datei\tthird']);
    expect(file.find('天气')).toEqual(['天气\tweather']);
    expect(file.find('leer')).toEqual([]);
    expect(file.find('')).toEqual([]);
    expect(file.find('zzz')).toEqual([]);
    expect(file.findPrefix('dat')).toEqual(['Datei\tfile', 'datei\tdata file', 'datei\tthird']);
    expect(file.findPrefix('天')).toEqual(['天气\tweather']);
    expect(file.findPrefix('q')).toEqual([]);
    file.close();
  });

  it('agrees with a scan of the lines (property)', () => {
    const word = fc.stringMatching(/^[a-dA-Dé天气]{0,4}$/);
    const line = fc.tuple(word, fc.stringMatching(/^[a-z ]{0,40}$/)).map(([k, v]) => `${k}\t${v}`);
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 60 }),
        fc.array(word, { maxLength: 10 }),
        fc.integer({ min: 1, max: 300 }),
        (lines, probes, block) => {
          const { file, sorted } = open(lines, block);
          for (const key of [...probes, ...lines.map(keyOf)])
            expect(file.find(key.toLowerCase())).toEqual(
              sorted.filter((l) => keyOf(l) === key.toLowerCase()),
            );
          file.close();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads an empty file as no lines', () => {
    const { file } = open([], 64);
    expect(file.find('a')).toEqual([]);
    file.close();
  });
});
