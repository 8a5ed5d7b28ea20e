import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildSearchIndex,
  createFreedictTranslator,
  detectLanguages,
  FREEDICT_LANGUAGES,
  FREEDICT_TRANSLATOR,
  glossWord,
  lazyFreedictTranslator,
  onDictionaryProblem,
  type SearchDoc,
} from '../index.js';
import { dataFile, hasSystem } from '../../../test/system-needs.js';
import { coveringLanguages, DICTD_DIR, type FreedictLanguage } from './freedict.js';

/** Made-up dictionaries in FreeDict's entry layout: the translator's logic without FreeDict's data. */
function dict(entries: Record<string, string[]>) {
  const byKey = new Map<string, string[]>();
  for (const [word, list] of Object.entries(entries)) byKey.set(word.toLowerCase(), list);
  return { lookup: (word: string) => byKey.get(word.toLowerCase()) ?? [] };
}
const SPA = dict({
  archivo: ['archivo /aɾtʃˈiβo/\narchive, files\n'],
  leer: ['leer /leˈeɾ/\nread\n'],
  contenido: ['contenido /…/\ncontents\n'],
  buscar: ['buscar /…/\n1. fetch, get\n2. look for, seek\n'],
  artículo: ['artículo /…/\narticle\n'],
  hotel: ['hotel /…/\nhotel\n'],
});
const DEU = dict({
  Datei: ['Datei /datˈaɪ/ <fem, n, sg>\n [comp.] computer file <n>, file <n>\n'],
  lesen: ['lesen /lˈeːzən/ <v>\nread <v>\n   Synonym: {lesen}\n'],
  List: ['List /lɪst/ <fem, n, sg>\nruse <n>\n'],
});

describe('detectLanguages', () => {
  it.each([
    ['leer el contenido de un archivo', ['spa']],
    ['den Inhalt einer Datei lesen', ['deu']],
    ['lire le contenu du fichier', ['fra']],
    ['ler o conteúdo de um arquivo', ['por']],
    ['read the contents of a file', []],
    ['Fetch a time series daily', []],
    ['list directory', []],
    ['Größe ändern', ['deu']],
  ])('%s', (text, langs) => expect(detectLanguages(text, FREEDICT_LANGUAGES)).toEqual(langs));
});

describe('glossWord', () => {
  it.each([
    ['archivo', ['archive', 'files']],
    ['archivos', ['archive', 'files']],
    ['ARCHIVO', ['archive', 'files']],
    ['buscar', ['fetch', 'get']],
    ['nada', []],
  ])('%s', (word, gloss) => expect(glossWord(word, SPA)).toEqual(gloss));
});

describe('createFreedictTranslator', () => {
  const t = createFreedictTranslator('test', { spa: SPA, deu: DEU });

  it('glosses the words of a text in a language it has', () => {
    expect(t.gloss('leer el contenido de un archivo')).toBe('read contents archive files');
    expect(t.gloss('Datei lesen')).toBe('computer file read');
  });

  it('glosses a text without function words when its dictionary has most of its words', () => {
    expect(t.gloss('buscar artículos')).toBe('fetch get article');
  });

  it('leaves English alone, and words that are their own gloss do not make a text foreign', () => {
    expect(t.gloss('read the contents of a file')).toBe('');
    expect(t.gloss('list directory')).toBe('');
    expect(t.gloss('hotel booking')).toBe('');
  });

  it('lets a Spanish query meet an English tool', () => {
    const docs: SearchDoc[] = [
      { key: 'fs/read_file', server: 'fs', name: 'read_file', description: 'Read the contents of a file.' },
      { key: 'web/fetch_page', server: 'web', name: 'fetch_page', description: 'Fetch a web page.' },
    ];
    const index = buildSearchIndex(docs, { translator: t });
    expect(index.search('leer el contenido de un archivo')[0]?.key).toBe('fs/read_file');
  });
});

describe('coveringLanguages', () => {
  /** The rule as written (every word of every language counted), with isForeign read off one word. */
  function byTheRule(text: string, dicts: Partial<Record<FreedictLanguage, ReturnType<typeof dict>>>) {
    const words = [...new Set(text.match(/\p{L}+/gu) ?? [])].filter((w) => w.length >= 3);
    if (words.length === 0 || words.length > 6) return [];
    let best = Math.ceil(words.length * 0.6);
    let found: FreedictLanguage[] = [];
    for (const lang of FREEDICT_LANGUAGES) {
      const d = dicts[lang];
      const foreign = (w: string) => d !== undefined && coveringLanguages(w, { [lang]: d }).length === 1;
      const covered = words.filter(foreign).length;
      if (covered > best) [best, found] = [covered, [lang]];
      else if (covered === best && covered > 0) found.push(lang);
    }
    return found;
  }
  const POOL = [
    'archivo',
    'leer',
    'contenido',
    'buscar',
    'hotel',
    'Datei',
    'lesen',
    'List',
    'read',
    'file',
    'tool',
  ];

  it('stops counting a language that cannot reach the best, with the same answer as counting all', () => {
    const dicts = { spa: SPA, deu: DEU, fra: dict({ lire: ['lire\nread\n'], fichier: ['fichier\nfile\n'] }) };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...POOL, 'lire', 'fichier'), { minLength: 1, maxLength: 8 }),
        (words) => {
          const text = words.join(' ');
          expect(coveringLanguages(text, dicts)).toEqual(byTheRule(text, dicts));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('lazyFreedictTranslator', () => {
  it('glosses nothing, and says so in its id, without the dictionaries', () => {
    const t = lazyFreedictTranslator('/nonexistent');
    expect(t.id).toBe('none');
    expect(t.gloss('leer el contenido de un archivo')).toBe('');
  });

  it('drops a dictionary that fails to open from its id, and reports it once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'carte-freedict-'));
    const warnings: string[] = [];
    onDictionaryProblem((m) => warnings.push(m));
    try {
      writeFileSync(join(dir, 'freedict-spa-eng.index'), 'archivo\tA\tB\n');
      writeFileSync(join(dir, 'freedict-spa-eng.dict.dz'), 'not gzip');
      const t = lazyFreedictTranslator(dir, { spanish: false });
      expect(t.id).toBe('freedict(spa)');
      expect(t.gloss('leer el contenido de un archivo')).toBe('');
      expect(t.gloss('buscar el archivo')).toBe('');
      expect(t.id).toBe('none');
      expect(warnings).toEqual([
        expect.stringMatching(
          /^FreeDict .*\/freedict-spa-eng\.index cannot be used \(.+\); spa is not glossed$/,
        ),
      ]);
    } finally {
      onDictionaryProblem(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The real FreeDict data from Debian's dict-freedict-* packages (.ci/run installs them).
const installed = hasSystem(
  import.meta.url,
  // Each package brings its .index and its .dict.dz together.
  ...FREEDICT_LANGUAGES.map((lang) =>
    dataFile(join(DICTD_DIR, `freedict-${lang}-eng.dict.dz`), `dict-freedict-${lang}-eng`),
  ),
);

describe.skipIf(!installed)('FreeDict (Debian packages installed)', () => {
  it('names its dictionaries', () => {
    expect(FREEDICT_TRANSLATOR.id).toBe('freedict(spa,deu,fra,por)');
  });

  it.each([
    ['leer el contenido de un archivo', 'read'],
    ['den Inhalt einer Datei lesen', 'file'],
    ['lire le contenu d’un fichier', 'file'],
    ['ler o conteúdo de um arquivo', 'read'],
  ])('%s has %s in its gloss', (text, word) =>
    expect(FREEDICT_TRANSLATOR.gloss(text).split(' ')).toContain(word),
  );

  it('leaves English alone', () => {
    expect(FREEDICT_TRANSLATOR.gloss('read the contents of a file')).toBe('');
  });
});
