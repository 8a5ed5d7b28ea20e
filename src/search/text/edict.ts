// EDICT (Japanese to English, EDRDG licence: CC BY-SA 3.0) as a translator, read at run time from
// Debian's `edict` package: none of its data is copied into this repository (docs/search-languages.md,
// "Japanese"). Runs of kana and kanji are split into the dictionary's own words (japanese.ts).
import { readFileSync } from 'node:fs';
import { glossOfSenses } from './cedict.js';
import { isWrittenAs, parseEdictLine, type EdictEntries, type EdictEntry } from './edict-entry.js';
import { EDICT_FILE, inspectEdict, openEdictGlossFile } from './edict-file.js';
import { indexEdict, type EdictIndex } from './edict-index.js';
import { glossFileDir } from './gloss-file.js';
import { dictionaryForms, segmentJapanese, type JapaneseWord } from './japanese.js';
import { NO_TRANSLATOR, reportDictionaryProblem, type Translator } from './translator.js';

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
/** Half-width katakana and their marks (U+FF61..U+FF9F): EDICT writes every word full-width. */
const HALF_WIDTH = /[\uFF61-\uFF9F]+/g;

/**
 * `text` with its half-width katakana made full-width (NFKC on that range alone, so other
 * characters are left as they are): ｶﾞｿﾞｳ → ガゾウ, the voiced marks ﾞ ﾟ joined to their kana.
 */
export function fullWidthKana(text: string): string {
  return text.replace(HALF_WIDTH, (run) => run.normalize('NFKC'));
}

/**
 * The word written `surface`, from the entries found under it that it can be (`isWrittenAs`): a
 * hiragana form only if one of them is common (P), so します is し + ます, not the rare しま + す.
 * Grammar is read from the tags.
 * The gloss rule is CC-CEDICT's (`glossOfSenses`) over the glosses of the common entries first,
 * computing senses (`(comp)`) before the others: the catalog describes software.
 */
export function wordOf(surface: string, entries: readonly EdictEntry[]): JapaneseWord | undefined {
  const kana = !KANJI.test(surface);
  const usable = entries.filter((e) => isWrittenAs(e, surface));
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

/** The entries of an in-memory index: its lines under `word`, parsed. */
export function entriesOfIndex(index: EdictIndex): EdictEntries {
  return (word) => index.lookup(word).flatMap((line) => parseEdictLine(line) ?? []);
}

/**
 * A translator for texts with kana: each Japanese run is segmented (japanese.ts) and its content
 * words glossed; a verb stem before an ending (書き, 書い) is its verb (書く); characters that start
 * no word give nothing.
 */
export function createEdictTranslator(id: string, entriesOf: EdictEntries): Translator {
  const cache = new Map<string, JapaneseWord | undefined>();
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
      for (const [run] of fullWidthKana(text).matchAll(JAPANESE_RUN))
        for (const { word } of segmentJapanese(run, lookup)) if (word?.gloss) out.push(word.gloss);
      return out.join(' ');
    },
  };
}

/** Whether `entry` is a verb of `verbClass` (`v5r` takes `v5r-i` too). */
function hasClass(entry: EdictEntry, verbClass: string): boolean {
  return entry.tags.some((t) => t === verbClass || t.startsWith(`${verbClass}-`));
}

/**
 * The entries of `file`: from its gloss file when `useGlossFiles` set a directory (docs/search-languages.md:
 * about 1 MiB and 20 ms once), else indexed in memory (0.13..0.34 s and 35 MB once, as before gloss
 * files, and when the file cannot be written).
 */
function loadEdict(file: string): EdictEntries {
  const dir = glossFileDir();
  if (dir !== undefined) {
    try {
      const entries = openEdictGlossFile(dir, file);
      if (entries) return entries;
    } catch {
      // an unwritable cache dir: indexed in memory, as before
    }
  }
  const index = indexEdict(readFileSync(file));
  if (!someEntry(index)) throw new Error('it has no EDICT entries: truncated or corrupt?');
  return entriesOfIndex(index);
}

/** Whether one of the index's lines is an EDICT entry (the first is, in a sound file). */
function someEntry(index: EdictIndex): boolean {
  for (const key of index.keys()) if (index.lookup(key).some((line) => parseEdictLine(line))) return true;
  return false;
}

/**
 * The EDICT translator, loaded on the first text with kana (loadEdict); texts without kana never
 * pay for it. Without the file its id is 'none' and it glosses nothing; so too when the file is
 * there but cannot be used (unreadable, truncated, corrupt: found at its first line, or at the
 * load), which it reports once (`onDictionaryProblem`), so that Japanese goes to CC-CEDICT.
 */
export function lazyEdictTranslator(file: string = EDICT_FILE): Translator {
  let inner: Translator | undefined;
  let id: string | undefined;
  const unusable = (problem: string): string => {
    reportDictionaryProblem(
      `EDICT ${file} cannot be used (${problem}); Japanese is glossed as without it, by CC-CEDICT`,
    );
    inner = NO_TRANSLATOR;
    return (id = NO_TRANSLATOR.id);
  };
  return {
    get id() {
      if (id !== undefined) return id;
      const found = inspectEdict(file);
      if (found && 'problem' in found) return unusable(found.problem);
      return (id = found ? `edict@${found.version}` : NO_TRANSLATOR.id);
    },
    gloss(text) {
      if (!inner) {
        if (!KANA.test(text)) return '';
        if (this.id === NO_TRANSLATOR.id) inner = NO_TRANSLATOR;
        else {
          try {
            inner = createEdictTranslator(this.id, loadEdict(file));
          } catch (err) {
            unusable((err as Error).message);
          }
        }
      }
      return inner!.gloss(text);
    },
  };
}

/**
 * CC-CEDICT and EDICT together: a text with kana is Japanese and goes to `edict` alone, kanji
 * included (glossing its kanji with CC-CEDICT too measured no better, docs/search-languages.md); a text
 * without kana, or any text when EDICT is not installed, goes to `cedict` as before.
 */
export function withJapanese(cedict: Translator, edict: Translator): Translator {
  return {
    get id() {
      const ids = [cedict.id, edict.id].filter((i) => i !== NO_TRANSLATOR.id);
      return ids.length ? ids.join('+') : NO_TRANSLATOR.id;
    },
    gloss(text) {
      if (!KANA.test(text) || edict.id === NO_TRANSLATOR.id) return cedict.gloss(text);
      const gloss = edict.gloss(text);
      // EDICT found unusable at its load: this text, and the next, go to CC-CEDICT.
      return edict.id === NO_TRANSLATOR.id ? cedict.gloss(text) : gloss;
    },
  };
}

/** The process-wide EDICT translator of RANKER_DEFAULTS: the file is indexed at most once. */
export const EDICT_TRANSLATOR: Translator = lazyEdictTranslator();
