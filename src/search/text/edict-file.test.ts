import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createEdictTranslator,
  EDICT_FILE,
  edictGlossFilePath,
  encodeEucJp,
  entriesOfIndex,
  indexEdict,
  isWrittenAs,
  lazyEdictTranslator,
  openEdictEntries,
  openEdictGlossFile,
  useGlossFiles,
  writeEdictGlossFile,
  type EdictEntries,
} from '../index.js';
import { dataFile, hasSystem } from '../../../test/system-needs.js';

const dir = mkdtempSync(join(tmpdir(), 'carte-edict-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Made-up entries in EDICT's line format (none is EDICT's own text), with the cases the file must
// keep apart: two entries under one headword, a reading shared by a `uk` entry and another, a kana
// headword that is also a reading, an empty tag group, a line without glosses.
const LINES = [
  '　？？？ /TEST dictionary in the EDICT layout/Created: 2000-03-04/',
  '探検 [たんけん] /(n,vs) exploration of caves/expedition/(P)/EntL9000001X/',
  '探検 [さぐりみ] /(n) a made-up second reading/EntL9000002X/',
  '嶌 [しま] /(n) (1) a made-up isle/(n) (2) (uk) a made-up second sense/(P)/EntL9000003X/',
  '縞 [しま] /(n) (uk) made-up stripes/EntL9000004X/',
  'しま /(n) a made-up rare word/EntL9000005X/',
  '為る [する] /(vs-i) (1) (uk) to perform a made-up act/(vs-i) (2) to act as/(P)/EntL9000006X/',
  '読み込む [よみこむ] /(v5m,vt) (1) to read closely/(v5m,vt) (2) (comp) to load (data)/to read in/(P)/EntL9000007X/',
  'ノート /() (1) notebook "quoted"/(n) (2) laptop\\back/(P)/EntL9000008X/',
  '書く [かく] /(v5k,vt) to write down/to author/(P)/EntL9000009X/',
  '欠く [かく] /(v5k,vt) (uk) to made-up lack/EntL9000010X/',
  'を /(prt) marks the object/(P)/EntL9000011X/',
  'ます /(aux-v) polite ending/(P)/EntL9000012X/',
  '謎',
];
const BYTES = Buffer.concat(LINES.map((line) => Buffer.from([...encodeEucJp(line)!, 0x0a])));
const SOURCE = join(dir, 'edict');
writeFileSync(SOURCE, BYTES);

/** The entries the translator reads under `key` from the in-memory index (the reference). */
const fromIndex = (index: EdictEntries, key: string) => index(key).filter((e) => isWrittenAs(e, key));

/** Every key of `keys` reads back from `file` as `index` gives it, in order and field by field. */
function expectSameEntries(index: EdictEntries, file: EdictEntries, keys: Iterable<string>): number {
  let n = 0;
  for (const key of keys) {
    expect(file(key), key).toStrictEqual(fromIndex(index, key));
    n++;
  }
  return n;
}

describe('EDICT gloss file, made-up entries', () => {
  const gloss = join(dir, 'gloss');
  writeEdictGlossFile(gloss, SOURCE);
  const path = edictGlossFilePath(gloss, SOURCE)!;
  const index = indexEdict(BYTES);
  const file = openEdictEntries(path);

  it('is named by the dictionary date and the rule and format versions', () =>
    expect(readdirSync(gloss)).toEqual(['edict@2000-03-04.rule1.v1.gloss']));

  it('reads every key back as the in-memory index gives it, and nothing else', () => {
    const keys = [...new Set(index.keys())];
    expect(expectSameEntries(entriesOfIndex(index), file, [...keys, '探', '', 'さぐり', 'x'])).toBe(
      keys.length + 4,
    );
    expect(file('しま').map((e) => e.headword)).toEqual(['縞', 'しま']);
    expect(file('さぐりみ')).toEqual([]); // a reading of an entry not usually written in kana
    const keysInFile = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t')[0]);
    expect(keysInFile).toEqual(keys.filter((k) => fromIndex(entriesOfIndex(index), k).length).sort());
  });

  it('glosses as the in-memory index does', () => {
    const before = createEdictTranslator('test', entriesOfIndex(index));
    const after = createEdictTranslator('test', file);
    for (const text of ['ノートを読み込む', '書いてください', 'しまを探検します', '縞を欠きます'])
      expect(after.gloss(text), text).toBe(before.gloss(text));
    expect(after.gloss('ノートを読み込む')).toBe('notebook "quoted" laptop\\back to load read in');
  });

  it('is what lazyEdictTranslator reads when a gloss file dir is set, else the index', () => {
    const cache = join(dir, 'cache');
    useGlossFiles(cache);
    try {
      expect(lazyEdictTranslator(SOURCE).gloss('探検します')).toBe('exploration of caves expedition');
      expect(existsSync(edictGlossFilePath(cache, SOURCE)!)).toBe(true);
    } finally {
      useGlossFiles(undefined);
    }
    rmSync(cache, { recursive: true, force: true });
    expect(lazyEdictTranslator(SOURCE).gloss('探検します')).toBe('exploration of caves expedition');
    expect(existsSync(cache)).toBe(false);
  });
});

// The real EDICT file from Debian's `edict` package (.ci/run installs it): every SAMPLE_EVERY-th
// distinct key of the index, in sorted order (so the file's groups are read once).
const SAMPLE_EVERY = 10;
const installed = hasSystem(import.meta.url, dataFile(EDICT_FILE, 'edict'));

describe.skipIf(!installed)('EDICT gloss file (Debian package installed)', () => {
  it(`reads every ${SAMPLE_EVERY}th key back as the in-memory index gives it`, () => {
    const bytes = readFileSync(EDICT_FILE);
    const index = indexEdict(bytes);
    const file = openEdictGlossFile(join(dir, 'real'))!;
    const keys = [...new Set(index.keys())].sort().filter((_, i) => i % SAMPLE_EVERY === 0);
    expect(expectSameEntries(entriesOfIndex(index), file, keys)).toBeGreaterThan(30_000);
  }, 120_000);
});
