import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildSearchIndex,
  createEdictTranslator,
  dictionaryForms,
  EDICT_FILE,
  EDICT_TRANSLATOR,
  encodeEucJp,
  entriesOfIndex,
  findEdict,
  fullWidthKana,
  indexEdict,
  lazyEdictTranslator,
  onDictionaryProblem,
  parseEdictLine,
  segmentJapanese,
  withJapanese,
  wordOf,
  type SearchDoc,
  type Translator,
} from '../index.js';
import { dataFile, hasSystem } from '../../../test/system-needs.js';

// Made-up entries in EDICT's line format (none is EDICT's own text): the parser, the segmenter and
// the gloss rule without EDRDG's data.
const LINES = [
  '　？？？ /TEST dictionary in the EDICT layout/Created: 2000-01-02/',
  '探検 [たんけん] /(n,vs) exploration of caves/expedition/(P)/EntL9000001X/',
  'ノート /(n) (1) notebook/(n) (2) laptop/(P)/EntL9000002X/',
  'を /(prt) marks the object/(P)/EntL9000003X/',
  'ます /(aux-v) polite ending/(P)/EntL9000004X/',
  'し /(prt,conj) and also/(P)/EntL9000005X/',
  '為る [する] /(vs-i) (1) (uk) to perform a made-up act/(vs-i) (2) to act as/(P)/EntL9000006X/',
  '嶌 [しま] /(n) (1) a made-up isle/(n) (2) (uk) a made-up second sense/(P)/EntL9000007X/',
  'しま /(n) a made-up rare word/EntL9000008X/',
  '読み込む [よみこむ] /(v5m,vt) (1) to read closely/(v5m,vt) (2) (comp) to load (data)/to read in/(P)/EntL9000009X/',
  '探検 [さぐりみ] /(n) a made-up second reading/EntL9000010X/',
  '下さい [ください] /(exp) (uk) please do/(P)/EntL9000011X/',
  'て /(prt) joins verbs/(P)/EntL9000012X/',
  'てく /(aux) a made-up auxiliary/EntL9000013X/',
  'だ /(cop) is/(P)/EntL9000014X/',
  'さ /(suf) a made-up suffix/(P)/EntL9000015X/',
  'い /(prt) a made-up emphasis/EntL9000016X/',
  '書く [かく] /(v5k,vt) to write down/to author/(P)/EntL9000017X/',
];
const FILE = Buffer.concat(LINES.map((line) => Buffer.from([...encodeEucJp(line)!, 0x0a])));
const INDEX = indexEdict(FILE);
const entriesOf = (word: string) => INDEX.lookup(word).flatMap((line) => parseEdictLine(line) ?? []);

describe('parseEdictLine', () => {
  it('reads the headword, reading, tags and glosses, computing senses apart', () => {
    expect(parseEdictLine(LINES[9]!)).toEqual({
      headword: '読み込む',
      reading: 'よみこむ',
      tags: ['v5m', 'vt'],
      kana: false,
      common: true,
      computing: ['to load (data)', 'to read in'],
      glosses: ['to read closely'],
    });
  });

  it('reads a kana headword, and "uk" only in the first sense', () => {
    expect(parseEdictLine(LINES[2]!)).toMatchObject({ headword: 'ノート', glosses: ['notebook', 'laptop'] });
    expect(parseEdictLine(LINES[2]!)?.reading).toBeUndefined();
    expect(parseEdictLine(LINES[6]!)).toMatchObject({ reading: 'する', tags: ['vs-i', 'uk'], kana: true });
    expect(parseEdictLine(LINES[7]!)).toMatchObject({ kana: false });
  });

  it('refuses a line without glosses', () => expect(parseEdictLine('探検')).toBeUndefined());
});

describe('indexEdict', () => {
  it('finds the lines of a headword or a reading, in file order', () => {
    expect(INDEX.lookup('探検')).toEqual([LINES[1], LINES[10]]);
    expect(INDEX.lookup('よみこむ')).toEqual([LINES[9]]);
    expect(INDEX.lookup('探')).toEqual([]);
    expect(INDEX.lookup('')).toEqual([]);
  });
});

describe('wordOf', () => {
  it.each([
    ['探検', { grammatical: false, gloss: 'exploration of caves expedition' }],
    ['読み込む', { grammatical: false, gloss: 'to load read in' }],
    ['を', { grammatical: true, gloss: '' }],
    ['し', { grammatical: true, gloss: '' }],
    ['する', { grammatical: true, gloss: '' }],
    // 嶌 is not usually written in kana in its first sense; the kana headword しま is not common: no word.
    ['しま', undefined],
  ])('%s', (surface, word) => expect(wordOf(surface, entriesOf(surface))).toEqual(word));
});

describe('segmentJapanese', () => {
  it('takes the longest word first and leaves unknown characters alone', () => {
    const lookup = (s: string) => wordOf(s, entriesOf(s));
    expect(
      segmentJapanese('ノートを探検します', lookup).map((s) => [s.surface, s.word?.grammatical]),
    ).toEqual([
      ['ノート', false],
      ['を', true],
      ['探検', false],
      ['し', true],
      ['ます', true],
    ]);
    expect(segmentJapanese('謎', lookup)).toEqual([{ surface: '謎' }]);
  });

  it('takes the fewest words, not the longest first word: て + ください, not てく + だ + さ + い', () => {
    const lookup = (s: string) => wordOf(s, entriesOf(s));
    expect(segmentJapanese('てください', lookup).map((s) => s.surface)).toEqual(['て', 'ください']);
  });
});

describe('dictionaryForms', () => {
  it.each([
    ['書き', ['書く/v5k', '書きる/v1']],
    ['書い', ['書く/v5k', '書ぐ/v5g', '書う/v5u', '書いる/v1']],
    ['読ん', ['読む/v5m', '読ぶ/v5b', '読ぬ/v5n', '読んる/v1']],
    ['調べ', ['調べる/v1']],
    ['ノート', []],
  ])('%s', (stem, forms) =>
    expect(dictionaryForms(stem).map((f) => `${f.form}/${f.verbClass}`)).toEqual(forms),
  );
});

describe('createEdictTranslator', () => {
  const t = createEdictTranslator('test', entriesOfIndex(INDEX));

  it('glosses the content words of a text with kana', () => {
    expect(t.gloss('ノートを読み込む')).toBe('notebook laptop to load read in');
    expect(t.gloss('探検する')).toBe('exploration of caves expedition');
  });

  it('reads a verb stem as its verb, of the class its ending allows', () => {
    expect(t.gloss('書いてください')).toBe('to write down author please do');
    expect(t.gloss('書きます')).toBe('to write down author');
  });

  it('reads half-width katakana as full-width, voiced marks included (ﾉｰﾄ, ｶﾞ)', () => {
    expect(fullWidthKana('ﾉｰﾄｦ探検 ｶﾞｿﾞｳ ﾊﾟｿｺﾝ｡')).toBe('ノートヲ探検 ガゾウ パソコン。');
    expect(t.gloss('ﾉｰﾄを読み込む')).toBe(t.gloss('ノートを読み込む'));
    expect(t.gloss('ﾉｰﾄ')).toBe('notebook laptop');
  });

  it('leaves texts without kana to the other dictionaries', () => {
    expect(t.gloss('探検')).toBe('');
    expect(t.gloss('read a notebook')).toBe('');
  });

  it('lets a Japanese query meet an English tool', () => {
    const docs: SearchDoc[] = [
      { key: 'fs/load_notebook', server: 'fs', name: 'load_notebook', description: 'Load a notebook.' },
      { key: 'maps/plan_trip', server: 'maps', name: 'plan_trip', description: 'Plan an expedition.' },
    ];
    const index = buildSearchIndex(docs, { translator: t });
    expect(index.search('ノートを読み込む')[0]?.key).toBe('fs/load_notebook');
  });
});

describe('lazyEdictTranslator', () => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-edict-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the file by the date in its header and reads it on the first text with kana', () => {
    const file = join(dir, 'edict');
    writeFileSync(file, FILE);
    expect(findEdict(file)).toEqual({ file, version: '2000-01-02' });
    const t = lazyEdictTranslator(file);
    expect(t.id).toBe('edict@2000-01-02');
    expect(t.gloss('探検します')).toBe('exploration of caves expedition');
  });

  describe('present but unusable: one warning naming the file and why, and Japanese goes to CC-CEDICT', () => {
    const cedict: Translator = { id: 'cedict', gloss: () => 'from cedict' };
    const warnings: string[] = [];
    beforeAll(() => onDictionaryProblem((m) => warnings.push(m)));
    afterAll(() => onDictionaryProblem(() => undefined));
    beforeEach(() => (warnings.length = 0));

    it.each([
      // A directory where the file should be: it opens, and every read fails (EACCES cannot be
      // made for root, who runs the CI container).
      ['unreadable', (f: string) => mkdirSync(f), 'EISDIR: illegal operation on a directory'],
      [
        'corrupt',
        (f: string) => writeFileSync(f, Buffer.from([0xff, 0xfe, 0, 1, 0x0a, 0x80])),
        'its first line is not an EDICT line: corrupt?',
      ],
      ['empty', (f: string) => writeFileSync(f, ''), 'it is empty'],
      [
        'truncated after its header',
        (f: string) => writeFileSync(f, FILE.subarray(0, FILE.indexOf(0x0a) + 1)),
        'it has no EDICT entries: truncated or corrupt?',
      ],
    ])('%s', (name, make, problem) => {
      const file = join(dir, name.replace(/ /g, '-'));
      make(file);
      const t = withJapanese(cedict, lazyEdictTranslator(file));
      expect(t.gloss('ノートを読み込む')).toBe('from cedict');
      expect(t.gloss('探検します')).toBe('from cedict');
      expect(t.id).toBe('cedict');
      expect(warnings).toEqual([
        `EDICT ${file} cannot be used (${problem}); Japanese is glossed as without it, by CC-CEDICT`,
      ]);
    });
  });

  it('glosses nothing, and says so in its id, without the file', () => {
    const t = lazyEdictTranslator(join(dir, 'absent'));
    expect(t.id).toBe('none');
    expect(t.gloss('ノートを読み込む')).toBe('');
  });
});

describe('withJapanese', () => {
  const fake = (id: string): Translator => ({ id, gloss: () => id });

  it('sends texts with kana to EDICT and the others to CC-CEDICT', () => {
    const t = withJapanese(fake('cedict'), fake('edict'));
    expect(t.id).toBe('cedict+edict');
    expect(t.gloss('天気を調べる')).toBe('edict');
    expect(t.gloss('天气预报')).toBe('cedict');
  });

  it('sends everything to CC-CEDICT without EDICT', () => {
    const t = withJapanese(fake('cedict'), fake('none'));
    expect(t.id).toBe('cedict');
    expect(t.gloss('天気を調べる')).toBe('cedict');
  });
});

// The real EDICT file from Debian's `edict` package (.ci/run installs it).
const installed = hasSystem(import.meta.url, dataFile(EDICT_FILE, 'edict'));

describe.skipIf(!installed)('EDICT (Debian package installed)', () => {
  it('names its dictionary by its date', () => {
    expect(EDICT_TRANSLATOR.id).toMatch(/^edict@\d{4}-\d{2}-\d{2}$/);
  });

  it.each([
    ['東京の天気を調べる', 'weather'],
    ['ファイルを読み込みます', 'file'],
    ['ﾌｧｲﾙを読み込みます', 'file'],
    ['ｽｸﾘｰﾝｼｮｯﾄを撮る', 'screenshot'],
    ['ウィキペディアで記事を検索する', 'retrieval'],
    ['棒グラフを描いてください', 'draw'],
  ])('%s has %s in its gloss', (text, word) =>
    expect(EDICT_TRANSLATOR.gloss(text).split(' ')).toContain(word),
  );

  it('drops particles and the verb endings', () => {
    const words = EDICT_TRANSLATOR.gloss('ファイルを作成します').split(' ');
    expect(words).toContain('file');
    expect(words).not.toContain('island');
  });

  it('leaves English alone', () => expect(EDICT_TRANSLATOR.gloss('read the contents of a file')).toBe(''));
});
