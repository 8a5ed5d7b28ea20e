// EDICT (Japanese to English, EDRDG licence: CC BY-SA 3.0) as a translator, read at run time from
// Debian's `edict` package: none of its data is copied into this repository (docs/search.md,
// "Other languages"). Runs of kana and kanji are split into the dictionary's own words (japanese.ts).
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { glossOfSenses } from './cedict.js';
import { indexEdict, type EdictIndex } from './edict-index.js';
import { dictionaryForms, segmentJapanese, type JapaneseWord } from './japanese.js';
import { NO_TRANSLATOR, type Translator } from './translator.js';

/** Where Debian's `edict` package installs the dictionary. */
export const EDICT_FILE = '/usr/share/edict/edict';

/**
 * Parts of speech of grammar, not content: particles, auxiliaries, the copula, conjunctions, and
 * prefixes and suffixes (お, さ "-ness"), which belong to the word beside them.
 */
const FUNCTION_POS = new Set(['prt', 'aux', 'aux-v', 'aux-adj', 'cop', 'conj', 'pref', 'suf']);
/** The light verb する ("to do") and its compounds: grammar when written in kana (検索する). */
const LIGHT_VERB = 'vs-i';
/** Most words kept in the lookup cache before it is emptied. */
const CACHE_WORDS = 20_000;

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const KANJI = /\p{Script=Han}/u;
const HIRAGANA = /^\p{Script=Hiragana}+$/u;
/** A run of Japanese writing: kanji, kana, the long-vowel mark and the iteration marks. */
const JAPANESE_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆ヶ]+/gu;
const TAG_GROUP = /^\(([^)]*)\)\s*/;

/** One EDICT line: its headword, reading, tags and senses. */
export interface EdictEntry {
  headword: string;
  /** The kana reading of a kanji headword; undefined for a kana headword. */
  reading?: string;
  /** The tags of the first sense: its parts of speech (`n`, `vs`, `prt`...) and others (`uk`, `comp`...). */
  tags: string[];
  /** Usually written in kana alone (`uk`), in its first sense. */
  kana: boolean;
  /** A common word (`(P)`). */
  common: boolean;
  /** The glosses of its computing senses (`(comp)`), in dictionary order, without their leading tags. */
  computing: string[];
  /** The glosses of the other senses, likewise. */
  glosses: string[];
}

/** Parse `KANJI [KANA] /(pos) (1) gloss/gloss/(2) gloss/(P)/EntL1234X/` (or `KANA /.../`). */
export function parseEdictLine(line: string): EdictEntry | undefined {
  const slash = line.indexOf(' /');
  if (slash < 0) return undefined;
  const [headword = '', bracket] = line.slice(0, slash).split(' ');
  const reading = bracket?.startsWith('[') ? bracket.slice(1, -1) : undefined;
  const entry: EdictEntry = { headword, tags: [], kana: false, common: false, glosses: [], computing: [] };
  if (reading) entry.reading = reading;
  let computing = false; // a (comp) tag holds until the next numbered sense
  for (const item of line.slice(slash + 2).split('/')) {
    if (item === '(P)') entry.common = true;
    if (!item || item === '(P)' || /^EntL\d/.test(item)) continue;
    let text = item;
    const tags: string[] = [];
    for (let m = TAG_GROUP.exec(text); m; m = TAG_GROUP.exec(text)) {
      tags.push(...m[1]!.split(','));
      text = text.slice(m[0].length);
    }
    const first = entry.glosses.length === 0 && entry.computing.length === 0;
    if (first) entry.tags = tags.filter((t) => !/^\d+$/.test(t));
    if (first && tags.includes('uk')) entry.kana = true;
    if (tags.includes('comp')) computing = true;
    else if (tags.some((t) => /^\d+$/.test(t))) computing = false;
    if (text) (computing ? entry.computing : entry.glosses).push(text);
  }
  return entry;
}

/**
 * The word written `surface`, from the entries found under it: a kanji form by its headword; a kana
 * form by its headword or by the reading of an entry usually written in kana (`uk`), so that the
 * kana of okurigana and particles do not read as rare kanji words; a hiragana form only if one of
 * them is common (P), so します is し + ます, not the rare しま + す. Grammar is read from the tags.
 * The gloss rule is CC-CEDICT's (`glossOfSenses`) over the glosses of the common entries first,
 * computing senses (`(comp)`) before the others: the catalog describes software.
 */
export function wordOf(surface: string, entries: readonly EdictEntry[]): JapaneseWord | undefined {
  const kana = !KANJI.test(surface);
  const usable = entries.filter((e) => e.headword === surface || (kana && e.kana && e.reading === surface));
  if (usable.length === 0) return undefined;
  const grammar = usable.some(
    (e) => e.tags.some((p) => FUNCTION_POS.has(p)) || (kana && e.kana && e.tags.includes(LIGHT_VERB)),
  );
  if (grammar) return { grammatical: true, gloss: '' };
  if (HIRAGANA.test(surface) && !usable.some((e) => e.common)) return undefined;
  const ordered = [...usable].sort((a, b) => Number(b.common) - Number(a.common));
  const glosses = [...ordered.flatMap((e) => e.computing), ...ordered.flatMap((e) => e.glosses)];
  return { grammatical: false, gloss: glossOfSenses(glosses) };
}

/**
 * A translator for texts with kana: each Japanese run is segmented (japanese.ts) and its content
 * words glossed; a verb stem before an ending (書き, 書い) is its verb (書く); characters that start
 * no word give nothing.
 */
export function createEdictTranslator(id: string, index: EdictIndex): Translator {
  const cache = new Map<string, JapaneseWord | undefined>();
  const entriesOf = (word: string) => index.lookup(word).flatMap((line) => parseEdictLine(line) ?? []);
  const lookup = (surface: string): JapaneseWord | undefined => {
    if (cache.has(surface)) return cache.get(surface);
    let word = wordOf(surface, entriesOf(surface));
    for (const { form, verbClass } of word ? [] : dictionaryForms(surface)) {
      const verbs = entriesOf(form).filter((e) => e.headword === form && hasClass(e, verbClass));
      word = wordOf(form, verbs);
      if (word) break;
    }
    if (cache.size >= CACHE_WORDS) cache.clear();
    cache.set(surface, word);
    return word;
  };
  return {
    id,
    gloss(text) {
      if (!KANA.test(text)) return '';
      const out: string[] = [];
      for (const [run] of text.matchAll(JAPANESE_RUN))
        for (const { word } of segmentJapanese(run, lookup)) if (word?.gloss) out.push(word.gloss);
      return out.join(' ');
    },
  };
}

/** Whether `entry` is a verb of `verbClass` (`v5r` takes `v5r-i` too). */
function hasClass(entry: EdictEntry, verbClass: string): boolean {
  return entry.tags.some((t) => t === verbClass || t.startsWith(`${verbClass}-`));
}

/** The installed EDICT file and its date (from its header, else its size); undefined when absent. */
export function findEdict(file: string = EDICT_FILE): { file: string; version: string } | undefined {
  if (!existsSync(file)) return undefined;
  const head = Buffer.alloc(512);
  const fd = openSync(file, 'r');
  const read = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const date = /Created: (\d{4}-\d{2}-\d{2})/.exec(head.toString('latin1', 0, read))?.[1];
  return { file, version: date ?? `${statSync(file).size}b` };
}

/**
 * The EDICT translator, indexed on the first text with kana (docs/search.md: 0.13..0.34 s and
 * 35 MB once); texts without kana never pay for it. Without the file, or if it fails to load, it
 * glosses nothing and its id is 'none'.
 */
export function lazyEdictTranslator(file: string = EDICT_FILE): Translator {
  let inner: Translator | undefined;
  let id: string | undefined;
  return {
    get id() {
      id ??= ((found) => (found ? `edict@${found.version}` : NO_TRANSLATOR.id))(findEdict(file));
      return id;
    },
    gloss(text) {
      if (!inner) {
        if (!KANA.test(text)) return '';
        try {
          inner =
            this.id === NO_TRANSLATOR.id
              ? NO_TRANSLATOR
              : createEdictTranslator(this.id, indexEdict(readFileSync(file)));
        } catch {
          inner = NO_TRANSLATOR;
        }
      }
      return inner.gloss(text);
    },
  };
}

/**
 * CC-CEDICT and EDICT together: a text with kana is Japanese and goes to `edict` alone, kanji
 * included (glossing its kanji with CC-CEDICT too measured no better, docs/search.md); a text
 * without kana, or any text when EDICT is not installed, goes to `cedict` as before.
 */
export function withJapanese(cedict: Translator, edict: Translator): Translator {
  return {
    get id() {
      const ids = [cedict.id, edict.id].filter((i) => i !== NO_TRANSLATOR.id);
      return ids.length ? ids.join('+') : NO_TRANSLATOR.id;
    },
    gloss: (text) =>
      KANA.test(text) && edict.id !== NO_TRANSLATOR.id ? edict.gloss(text) : cedict.gloss(text),
  };
}

/** The process-wide EDICT translator of RANKER_DEFAULTS: the file is indexed at most once. */
export const EDICT_TRANSLATOR: Translator = lazyEdictTranslator();
