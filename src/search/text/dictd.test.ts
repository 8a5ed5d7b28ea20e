import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeDictdNumber, openDictd, parseDictzipHeader, parseFreedictGlosses } from '../index.js';

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const encode = (n: number): string => (n < 64 ? DIGITS[n]! : encode(Math.floor(n / 64)) + DIGITS[n % 64]!);

/** A dictzip file of `text` in chunks of `chunkLength` bytes, each deflated on its own as dictzip does. */
function dictzip(text: Buffer, chunkLength: number): Buffer {
  const chunks: Buffer[] = [];
  for (let p = 0; p < text.length; p += chunkLength)
    chunks.push(deflateRawSync(text.subarray(p, p + chunkLength), { finishFlush: constants.Z_FULL_FLUSH }));
  const ra = Buffer.alloc(10 + 2 * chunks.length);
  ra.write('RA', 0, 'latin1');
  ra.writeUInt16LE(6 + 2 * chunks.length, 2);
  ra.writeUInt16LE(1, 4);
  ra.writeUInt16LE(chunkLength, 6);
  ra.writeUInt16LE(chunks.length, 8);
  chunks.forEach((c, i) => ra.writeUInt16LE(c.length, 10 + 2 * i));
  const head = Buffer.from([0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 2, 3, 0, 0]);
  head.writeUInt16LE(ra.length, 10);
  return Buffer.concat([head, ra, ...chunks, Buffer.alloc(8)]);
}

/** A made-up dictionary in FreeDict's layout, sorted by lower-cased headword as dictd's are. */
const ENTRIES: [string, string][] = [
  ['archivo', 'archivo /aɾtʃˈiβo/\narchive, files\n'],
  ['buscar', 'buscar /buskˈaɾ/\n1. fetch, get\n2. look for, seek\n'],
  [
    'Datei',
    'Datei /datˈaɪ/ <fem, n, sg>\n [comp.] computer file <n>, file <n>\n      "eine Datei öffnen"  - open a file\n',
  ],
  ['leer', 'leer /leˈeɾ/\nread\n'],
  ['Lesen', 'Lesen /lˈeːzən/ <neut, n, sg>\nreading <n>\n'],
  ['lesen', 'lesen /lˈeːzən/ <v>\nread <v>\n   Synonym: {lesen}\n\n see: {gelesen}\n'],
];

describe('decodeDictdNumber', () => {
  it.each([
    ['A', 0],
    ['B', 1],
    ['/', 63],
    ['BA', 64],
    ['BZ', 89],
    ['d57', 29 * 4096 + 57 * 64 + 59],
    ['', NaN],
    ['a-b', NaN],
  ])('%s is %d', (text, n) => expect(decodeDictdNumber(text)).toBe(n));

  it('reads back what dictd writes', () => {
    for (const n of [0, 63, 64, 4095, 58315, 100_143_555]) expect(decodeDictdNumber(encode(n))).toBe(n);
  });
});

describe('openDictd', () => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-dictd-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const base = join(dir, 'test-eng');
  const parts = ENTRIES.map(([, text]) => Buffer.from(text));
  let offset = 0;
  const index = ENTRIES.map(([word], i) => {
    const line = `${word}\t${encode(offset)}\t${encode(parts[i]!.length)}`;
    offset += parts[i]!.length;
    return line;
  });
  writeFileSync(`${base}.index`, `00databaseutf8\tA\tB\n${index.join('\n')}\n`);
  // Chunks of 40 bytes: most entries straddle two chunks.
  writeFileSync(`${base}.dict.dz`, dictzip(Buffer.concat(parts), 40));
  const dict = openDictd(base);
  afterAll(() => dict.close());

  it('finds an entry by its headword', () => {
    expect(dict.lookup('buscar')).toEqual([ENTRIES[1]![1]]);
    expect(dict.lookup('leer')).toEqual([ENTRIES[3]![1]]);
  });

  it('ignores letter case, exact case first', () => {
    expect(dict.lookup('datei')).toEqual([ENTRIES[2]![1]]);
    expect(dict.lookup('lesen')).toEqual([ENTRIES[5]![1], ENTRIES[4]![1]]);
    expect(dict.lookup('Lesen')).toEqual([ENTRIES[4]![1], ENTRIES[5]![1]]);
  });

  it('finds nothing for a word that is not a headword', () => {
    expect(dict.lookup('zzz')).toEqual([]);
    expect(dict.lookup('a')).toEqual([]);
  });

  it('reads the chunk table', () => {
    const layout = parseDictzipHeader(dictzip(Buffer.from('x'.repeat(100)), 40));
    expect(layout.chunkLength).toBe(40);
    expect(layout.starts).toHaveLength(4);
  });

  it('refuses a plain gzip file', () => {
    expect(() => parseDictzipHeader(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0, 0]))).toThrow(
      'not a dictzip file',
    );
  });
});

describe('parseFreedictGlosses', () => {
  it.each(ENTRIES.map(([word, text], i) => [word, text, i] as const))('%s', (_word, text, i) =>
    expect(parseFreedictGlosses(text)).toEqual(
      [
        ['archive', 'files'],
        ['fetch', 'get', 'look for', 'seek'],
        ['computer file', 'file'],
        ['read'],
        ['reading'],
        ['read'],
      ][i],
    ),
  );
});
