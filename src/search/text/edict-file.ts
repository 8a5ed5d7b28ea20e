// EDICT's entries by headword and reading, derived once per EDICT version into a gloss file
// (gloss-file.ts) and read by bisection on disk, so that a process that has answered a Japanese
// query does not hold the 19 MB dictionary and its index (issue 29 item 2; docs/search-languages.md, memory).
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isWrittenAs, parseEdictLine, type EdictEntries, type EdictEntry } from './edict-entry.js';
import {
  compiledTextModule,
  ensureGlossFile,
  GLOSS_FILE_FORMAT,
  openGlossFile,
  registerDerivedDictionary,
  writeGlossFile,
  type DerivedDictionary,
  type GlossTable,
} from './gloss-file.js';

/** Where Debian's `edict` package installs the dictionary. */
export const EDICT_FILE = '/usr/share/edict/edict';

/** The installed EDICT file and its date (from its header, else its size); undefined when absent or unusable. */
export function findEdict(file: string = EDICT_FILE): { file: string; version: string } | undefined {
  const found = inspectEdict(file);
  return found && 'version' in found ? found : undefined;
}

/**
 * The EDICT file at `file`: its date, or why it cannot be used when it is there (it cannot be
 * read, or its first line is not an EDICT line: truncated or corrupt); undefined when absent.
 */
export function inspectEdict(
  file: string = EDICT_FILE,
): { file: string; version: string } | { file: string; problem: string } | undefined {
  if (!existsSync(file)) return undefined;
  const head = Buffer.alloc(512);
  let read: number;
  try {
    const fd = openSync(file, 'r');
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return { file, problem: (err as Error).message.replace(/, \w+(?: '.*')?$/, '') };
  }
  const text = new TextDecoder('euc-jp').decode(head.subarray(0, read));
  const first = text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'));
  if (!parseEdictLine(first))
    return { file, problem: read ? 'its first line is not an EDICT line: corrupt?' : 'it is empty' };
  const date = /Created: (\d{4}-\d{2}-\d{2})/.exec(head.toString('latin1', 0, read))?.[1];
  return { file, version: date ?? `${statSync(file).size}b` };
}

/**
 * Version of what the file holds: the entries `parseEdictLine` reads, kept under each headword and
 * reading they can be written as (`isWrittenAs`; the translator drops the others), as `StoredEntry`
 * arrays. It names the file, so a file written by another rule is never read: bump it with any
 * change to those (edict-file.test.ts reads every key back against the in-memory index).
 */
export const EDICT_RULE_VERSION = 1;
const FILE_PREFIX = 'edict@';

/**
 * One entry in a value: [headword (0: the key), reading (0: none), tags, flags (1: `uk`, 2: common),
 * computing glosses, other glosses]. JSON, so any text round-trips; a value is an array of them.
 */
type StoredEntry = [0 | string, 0 | string, string[], number, string[], string[]];

const store = (key: string, e: EdictEntry): StoredEntry => [
  e.headword === key ? 0 : e.headword,
  e.reading ?? 0,
  e.tags,
  (e.kana ? 1 : 0) | (e.common ? 2 : 0),
  e.computing,
  e.glosses,
];

function load(key: string, [headword, reading, tags, flags, computing, glosses]: StoredEntry): EdictEntry {
  const entry: EdictEntry = {
    headword: headword === 0 ? key : headword,
    tags,
    kana: (flags & 1) !== 0,
    common: (flags & 2) !== 0,
    computing,
    glosses,
  };
  if (reading !== 0) entry.reading = reading;
  return entry;
}

/**
 * The gloss table of an EDICT file's bytes (EUC-JP, a header line, then one entry a line): under
 * each headword and reading, the entries it can be written as, in file order.
 */
export function edictTable(file: Buffer): GlossTable {
  // Each entry is stored as JSON as it is parsed: 270,000 entry objects held to the end took 360 MB
  // of RSS, their JSON 200.
  const stored = new Map<string, string[]>();
  const add = (key: string | undefined, entry: EdictEntry): void => {
    if (!key || !isWrittenAs(entry, key)) return;
    const json = JSON.stringify(store(key, entry));
    const list = stored.get(key);
    if (list) list.push(json);
    else stored.set(key, [json]);
  };
  const text = new TextDecoder('euc-jp').decode(file);
  for (let from = text.indexOf('\n') + 1; from > 0 && from < text.length;) {
    const end = text.indexOf('\n', from);
    const entry = parseEdictLine(text.slice(from, end < 0 ? text.length : end));
    from = end < 0 ? text.length : end + 1;
    if (!entry) continue;
    add(entry.headword, entry);
    if (entry.reading !== entry.headword) add(entry.reading, entry);
  }
  if (stored.size === 0) throw new Error('it has no EDICT entries: truncated or corrupt?');
  const glosses = new Map<string, string>();
  for (const [key, list] of stored) glosses.set(key, `[${list.join(',')}]`);
  return { glosses, variants: new Map() };
}

/** The gloss file of the EDICT file `edict` under `dir`; undefined when it is not installed. */
export function edictGlossFilePath(dir: string, edict: string = EDICT_FILE): string | undefined {
  const found = findEdict(edict);
  const name = `${FILE_PREFIX}${found?.version}.rule${EDICT_RULE_VERSION}.v${GLOSS_FILE_FORMAT}.gloss`;
  return found && join(dir, name);
}

/** Read the EDICT file `edict` and write its gloss file under `dir` (what the child process runs). */
export function writeEdictGlossFile(dir: string, edict: string = EDICT_FILE): void {
  const path = edictGlossFilePath(dir, edict);
  if (!path) return;
  writeGlossFile(path, edictTable(readFileSync(edict)), FILE_PREFIX);
}

/** The entries under a word, read from a file written by `writeEdictGlossFile`. */
export function openEdictEntries(path: string): EdictEntries {
  const file = openGlossFile(path);
  return (word) => {
    const value = file.get(word);
    return value ? (JSON.parse(value) as StoredEntry[]).map((e) => load(word, e)) : [];
  };
}

const EDICT_GLOSS_FILE: DerivedDictionary = {
  path: (dir) => edictGlossFilePath(dir),
  builder: { module: compiledTextModule(import.meta.url, 'edict-file'), exportName: 'writeEdictGlossFile' },
  build: (dir) => writeEdictGlossFile(dir),
};
registerDerivedDictionary(EDICT_GLOSS_FILE);

/** The entries of `edict` read from its gloss file under `dir`, written first if missing (ensureGlossFile). */
export function openEdictGlossFile(dir: string, edict: string = EDICT_FILE): EdictEntries | undefined {
  // Only the installed file has a builder a child process can run (it is given the directory alone).
  const path = edict === EDICT_FILE ? ensureGlossFile(EDICT_GLOSS_FILE, dir) : edictGlossFilePath(dir, edict);
  if (path === undefined) return undefined;
  if (!existsSync(path)) writeEdictGlossFile(dir, edict);
  return openEdictEntries(path);
}
