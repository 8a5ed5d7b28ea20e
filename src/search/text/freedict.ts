// FreeDict dictionaries (Spanish, German, French, Portuguese to English; GPL for most) as a
// translator, read at run time from where Debian's dict-freedict-* packages put them: none of
// their data is copied into this repository (docs/search-languages.md).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { apertiumGlossFilePath, openApertiumLookup } from './apertium.js';
import { openDictd, parseFreedictGlosses } from './dictd.js';
import { glossFileDir, glossFilesGeneration } from './gloss-file.js';
import { STOP_WORDS } from './stopwords.js';
import { NO_TRANSLATOR, reportDictionaryProblem, type Translator } from './translator.js';

/** Where dictd packages install dictionaries. */
export const DICTD_DIR = '/usr/share/dictd';

/**
 * Function words of each language that are not English words: a text is in the language whose
 * words it uses most (ties gloss in each), and in none when it uses as many English ones.
 */
const FUNCTION_WORDS = {
  spa: 'el la los las del un una unos unas y para con por en mi mis su sus todos todas al es este esta de que se como',
  deu: 'der die das den dem des und ein eine einen einem einer mit für von zu zum zur im ist nach auf aus alle meine meinen ich bitte wie oder nicht',
  fra: 'le la les des du un une et pour avec dans sur au aux est mon ma mes tous toutes je ce cette de que comme',
  por: 'o os do da dos das um uma e para com em no na nos nas meu minha meus todos todas ao é este esta de que como',
} as const;
/** FUNCTION_WORDS as sets, made once. */
const FUNCTION_SETS: Record<FreedictLanguage, ReadonlySet<string>> = {
  spa: new Set(FUNCTION_WORDS.spa.split(' ')),
  deu: new Set(FUNCTION_WORDS.deu.split(' ')),
  fra: new Set(FUNCTION_WORDS.fra.split(' ')),
  por: new Set(FUNCTION_WORDS.por.split(' ')),
};
/** English function words (the stop list) that are none of the other languages' words. */
const ENGLISH_WORDS: ReadonlySet<string> = ((foreign) =>
  new Set([...STOP_WORDS].filter((w) => !foreign.has(w))))(
  new Set(Object.values(FUNCTION_WORDS).flatMap((list) => list.split(' '))),
);
/** Letters that only some of the languages use. */
const LETTERS: Record<FreedictLanguage, RegExp> = {
  spa: /[ñ¿¡]/,
  deu: /[ßäöü]/,
  fra: /[çàèêâîôûëïœ]/,
  por: /[ãõçêâôà]/,
};

/** The dictionaries looked for, by ISO 639-3 code, in table order. */
export const FREEDICT_LANGUAGES = ['spa', 'deu', 'fra', 'por'] as const;
export type FreedictLanguage = (typeof FREEDICT_LANGUAGES)[number];

/**
 * The gloss rule (docs/search-languages.md): the first GLOSSES_PER_ENTRY glosses of each entry of the word,
 * exact letter case first, at most GLOSS_MAX_WORDS words in all. Words of fewer than MIN_LENGTH
 * letters are not looked up (articles and prepositions, already function words).
 */
export const GLOSSES_PER_ENTRY = 2;
export const GLOSS_MAX_WORDS = 4;
const MIN_LENGTH = 3;
/** Most words a text without function words may have to be glossed by dictionary coverage. */
const COVER_MAX_WORDS = 6;
/** Share of those words a dictionary must have, 0..1. */
const COVER_SHARE = 0.6;
/** Inflections tried when a word is not a headword: plurals and German noun and verb endings. */
const ENDINGS = ['s', 'es', 'en', 'n', 'e'];

/** A word list of one language: the entries of a headword, and whether it has any. */
export interface EntryLookup {
  lookup(word: string): string[];
}

const WORD = /\p{L}+/gu;
/** A gloss word worth indexing: letters only (drops abbreviations such as `cont.`). */
const PLAIN = /^\p{L}+$/u;

/** The languages `text` is written in, of `languages`, by its function words and letters; [] for English. */
export function detectLanguages(text: string, languages: readonly FreedictLanguage[]): FreedictLanguage[] {
  const lower = text.toLowerCase();
  const words = (lower.match(WORD) ?? []).slice(0, 200);
  const english = words.filter((w) => ENGLISH_WORDS.has(w)).length;
  let best = 0;
  let found: FreedictLanguage[] = [];
  for (const lang of languages) {
    const own = FUNCTION_SETS[lang];
    const score = words.filter((w) => own.has(w)).length + (LETTERS[lang].test(lower) ? 1 : 0);
    if (score > best) [best, found] = [score, [lang]];
    else if (score === best && score > 0) found.push(lang);
  }
  return best > english ? found : [];
}

/** The entries of `word`, or of it without one of ENDINGS when it has none. */
function entriesOf(word: string, dict: EntryLookup): string[] {
  let entries = dict.lookup(word);
  for (const ending of ENDINGS) {
    if (entries.length || word.length - ending.length < MIN_LENGTH || !word.endsWith(ending)) continue;
    entries = dict.lookup(word.slice(0, -ending.length));
  }
  return entries;
}

/**
 * Per dictionary, what a word was found to be: a catalog repeats its words thousands of times
 * ("file", "list", "get" in every other tool name), and each answer costs dictionary lookups and
 * a parse of every entry. Cleared past MEMO_MAX words, so queries cannot grow it without bound.
 */
const MEMO_MAX = 50_000;
const memos = new WeakMap<
  EntryLookup,
  { gloss: Map<string, readonly string[]>; foreign: Map<string, boolean> }
>();

function memoOf(dict: EntryLookup): { gloss: Map<string, readonly string[]>; foreign: Map<string, boolean> } {
  let memo = memos.get(dict);
  if (!memo) memos.set(dict, (memo = { gloss: new Map(), foreign: new Map() }));
  return memo;
}

function remembered<T>(memo: Map<string, T>, word: string, make: () => T): T {
  let value = memo.get(word);
  if (value === undefined) {
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(word, (value = make()));
  }
  return value;
}

/** The English gloss words of one word in `dict`, trying common endings when it is not a headword. */
export function glossWord(word: string, dict: EntryLookup): string[] {
  return [...glossesOf(word, dict)];
}

/** glossWord's remembered answer itself (callers must not change it). */
function glossesOf(word: string, dict: EntryLookup): readonly string[] {
  return remembered(memoOf(dict).gloss, word, () => glossWordOnce(word, dict));
}

function glossWordOnce(word: string, dict: EntryLookup): readonly string[] {
  const words: string[] = [];
  for (const entry of entriesOf(word, dict))
    for (const gloss of parseFreedictGlosses(entry).slice(0, GLOSSES_PER_ENTRY))
      for (const w of gloss.split(' ')) if (PLAIN.test(w) && !words.includes(w)) words.push(w);
  return words.slice(0, GLOSS_MAX_WORDS);
}

/**
 * A translator for Latin-script languages: a text whose function words say it is in one of `dicts`'
 * languages has its other words glossed; English texts (and all others) are left alone, so an
 * English catalog or query never reads a dictionary.
 */
export function createFreedictTranslator(
  id: string,
  dicts: Partial<Record<FreedictLanguage, EntryLookup>>,
): Translator {
  const languages = FREEDICT_LANGUAGES.filter((l) => dicts[l]);
  return {
    id,
    gloss(text) {
      const out: string[] = [];
      const detected = detectLanguages(text, languages);
      const langs = detected.length || hasEnglish(text) ? detected : coveringLanguages(text, dicts);
      const words = langs.length ? new Set(text.match(WORD) ?? []) : [];
      for (const lang of langs) {
        const own = FUNCTION_SETS[lang];
        for (const w of words)
          if (w.length >= MIN_LENGTH && !own.has(w.toLowerCase())) out.push(...glossesOf(w, dicts[lang]!));
      }
      return out.join(' ');
    },
  };
}

/** Whether `text` has an English function word. */
function hasEnglish(text: string): boolean {
  return (text.toLowerCase().match(WORD) ?? []).some((w) => ENGLISH_WORDS.has(w));
}

/**
 * For a text without function words ("buscar artículos científicos"): the languages whose
 * dictionary has the most of its words of MIN_LENGTH letters or more (endings tried), at least
 * COVER_SHARE of them, when there are at most COVER_MAX_WORDS. A headword that glosses as itself
 * ("Hotel", "Team", "update") is English too and does not count.
 */
export function coveringLanguages(
  text: string,
  dicts: Partial<Record<FreedictLanguage, EntryLookup>>,
): FreedictLanguage[] {
  const words = [...new Set(text.match(WORD) ?? [])].filter((w) => w.length >= MIN_LENGTH);
  if (words.length === 0 || words.length > COVER_MAX_WORDS) return [];
  let best = Math.ceil(words.length * COVER_SHARE);
  let found: FreedictLanguage[] = [];
  for (const lang of FREEDICT_LANGUAGES) {
    const dict = dicts[lang];
    let covered = 0;
    // A language that can no longer reach `best` (a tie counts) is left without looking further.
    for (let i = 0; dict && i < words.length && covered + words.length - i >= best; i++)
      if (isForeign(words[i]!, dict)) covered++;
    if (covered > best) [best, found] = [covered, [lang]];
    else if (covered === best && covered > 0) found.push(lang);
  }
  return found;
}

/** Whether `word` is a headword of `dict` that is not also its own gloss ("Hotel" → hotel is English too). */
function isForeign(word: string, dict: EntryLookup): boolean {
  return remembered(memoOf(dict).foreign, word, () => isForeignOnce(word, dict));
}

function isForeignOnce(word: string, dict: EntryLookup): boolean {
  const entries = entriesOf(word, dict);
  if (entries.length === 0) return false;
  const own = new RegExp(`(^|[^\\p{L}])${word}([^\\p{L}]|$)`, 'iu');
  return !entries.some((e) => parseFreedictGlosses(e).some((g) => own.test(g)));
}

/** The FreeDict dictionaries installed in `dir`, by language: the base path of each (no extension). */
export function findFreedict(dir: string = DICTD_DIR): Partial<Record<FreedictLanguage, string>> {
  const found: Partial<Record<FreedictLanguage, string>> = {};
  for (const lang of FREEDICT_LANGUAGES) {
    const base = join(dir, `freedict-${lang}-eng`);
    if (existsSync(`${base}.index`) && existsSync(`${base}.dict.dz`)) found[lang] = base;
  }
  return found;
}

/** A second word list of one language: its id in the translator's, and how to open it. */
export interface ExtraWordList {
  id: string;
  /** Opens the list; undefined or a throw means "not available". */
  open: () => EntryLookup | undefined;
}

/** Options of `lazyFreedictTranslator`. */
export interface FreedictOptions {
  /**
   * A second Spanish word list, merged after FreeDict's entries (docs/search-languages.md, "Apertium"); false
   * for none. Default: Apertium's gloss file, once it is built in the directory `useGlossFiles` set.
   */
  spanish?: ExtraWordList | false;
}

const APERTIUM_ID = 'apertium(spa)';

/** Apertium's word list, when its gloss file is built under the directory `useGlossFiles` set. */
function apertiumDefault(): ExtraWordList | false {
  const dir = glossFileDir();
  const path = dir === undefined ? undefined : apertiumGlossFilePath(dir);
  if (dir === undefined || !path || !existsSync(path)) return false;
  return { id: APERTIUM_ID, open: () => openApertiumLookup(dir) };
}

/** Both lists' entries for a word: `first`'s, then `second`'s. */
function mergeLookups(
  first: EntryLookup | undefined,
  second: EntryLookup | undefined,
): EntryLookup | undefined {
  if (!first || !second) return first ?? second;
  return { lookup: (word) => [...first.lookup(word), ...second.lookup(word)] };
}

/** The translator's id for these FreeDict languages and second Spanish list. */
function freedictId(languages: readonly FreedictLanguage[], extra: ExtraWordList | false): string {
  const ids = [languages.length ? `freedict(${languages.join(',')})` : '', extra ? extra.id : ''];
  return ids.filter(Boolean).join('+') || NO_TRANSLATOR.id;
}

/** FreeDict's dictionaries of `bases`, opened once a translator needs them: the ones that open, by language. */
interface OpenedFreedict {
  dicts: Partial<Record<FreedictLanguage, EntryLookup>>;
  opened: FreedictLanguage[];
}

/** The dictionaries of `bases` that open; an unreadable one is reported and left out. */
function openFreedict(bases: Partial<Record<FreedictLanguage, string>>): OpenedFreedict {
  const dicts: Partial<Record<FreedictLanguage, EntryLookup>> = {};
  const opened: FreedictLanguage[] = [];
  for (const [lang, base] of Object.entries(bases) as [FreedictLanguage, string][]) {
    try {
      dicts[lang] = openDictd(base);
      opened.push(lang);
    } catch (err) {
      reportDictionaryProblem(
        `FreeDict ${base}.index cannot be used (${(err as Error).message}); ${lang} is not glossed`,
      );
    }
  }
  return { dicts, opened };
}

/** FreeDict's dictionaries with the second Spanish list merged in when it opens, and their id. */
function withSecondList(
  own: OpenedFreedict,
  extra: ExtraWordList | false,
): { dicts: Partial<Record<FreedictLanguage, EntryLookup>>; id: string } {
  let second: EntryLookup | undefined;
  try {
    second = extra ? extra.open() : undefined;
  } catch (err) {
    reportDictionaryProblem(`${(extra as ExtraWordList).id} cannot be used (${(err as Error).message})`);
  }
  const dicts = { ...own.dicts };
  const merged = mergeLookups(dicts.spa, second);
  if (merged) dicts.spa = merged;
  return { dicts, id: freedictId(own.opened, second ? extra : false) };
}

/**
 * The FreeDict translator over the dictionaries in `dir`, opened on the first text in their
 * languages (reading each `.index`; entries are read a chunk at a time, on demand), with Apertium's
 * Spanish list merged in once its gloss file is built. Its id names what it glosses with: the
 * dictionaries found, until they are opened; then the ones that opened. Without the packages, or
 * if one fails to open, it glosses nothing in that language.
 */
export function lazyFreedictTranslator(dir: string = DICTD_DIR, options: FreedictOptions = {}): Translator {
  let found: Partial<Record<FreedictLanguage, string>> | undefined;
  const bases = (): Partial<Record<FreedictLanguage, string>> => (found ??= findFreedict(dir));
  let own: OpenedFreedict | undefined;
  let inner: { translator: Translator; id: string } | undefined;
  let seen = -1;
  let extra: ExtraWordList | false = false;
  /** The second Spanish list; Apertium's is looked for again when a gloss file has been built. */
  const spanish = (): ExtraWordList | false => {
    if (options.spanish !== undefined) return options.spanish;
    if (seen !== glossFilesGeneration()) {
      seen = glossFilesGeneration();
      const next = apertiumDefault();
      if (Boolean(next) !== Boolean(extra)) inner = undefined; // merged in at the next text
      extra = next;
    }
    return extra;
  };
  const languages = (): FreedictLanguage[] =>
    FREEDICT_LANGUAGES.filter((l) => bases()[l] || (l === 'spa' && spanish()));
  return {
    get id() {
      const extraNow = spanish();
      return (
        inner?.id ??
        freedictId(
          FREEDICT_LANGUAGES.filter((l) => bases()[l]),
          extraNow,
        )
      );
    },
    gloss(text) {
      const extraNow = spanish();
      if (!inner) {
        const langs = languages();
        if (langs.length === 0 || (detectLanguages(text, langs).length === 0 && hasEnglish(text))) return '';
        own ??= openFreedict(bases());
        const { dicts, id } = withSecondList(own, langs.includes('spa') && extraNow);
        inner = { translator: createFreedictTranslator(id, dicts), id };
      }
      return inner.translator.gloss(text);
    },
  };
}

/** The process-wide FreeDict translator of RANKER_DEFAULTS: each dictionary is opened at most once. */
export const FREEDICT_TRANSLATOR: Translator = lazyFreedictTranslator();
