// Gloss files: a dictionary's headword -> gloss table, derived once per dictionary version into the
// data dir and read by bisection on disk, so that a process never holds a parsed dictionary
// (docs/search-languages.md, "Memory and first-query time"). Generic over dictionaries: each registers how its
// file is named and built (cedict.ts).
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openSortedLines, type SortedLines } from './sorted-lines.js';

/** Bumped when the file layout changes; each dictionary's own rule version goes into its file name. */
export const GLOSS_FILE_FORMAT = 1;
/** Prefix of the keys of variant lines (a character to the form it is looked up as), below every headword. */
const VARIANT = '\u0001';

/** A headword -> gloss table and the character variants, as written by `writeGlossFile`. */
export interface GlossTable {
  glosses: ReadonlyMap<string, string>;
  variants: ReadonlyMap<string, string>;
}

const keyOf = (line: string): string => line.slice(0, line.indexOf('\t'));
const clean = (text: string): string => text.replace(/[\t\n\r]+/g, ' ');

/** The file's lines, `key TAB value`, sorted by key (JavaScript string order, as bisection compares). */
function sortedLines(table: GlossTable): [string, string][] {
  const lines: [string, string][] = [
    ...[...table.glosses].map(([k, v]): [string, string] => [clean(k), clean(v)]),
    ...[...table.variants].map(([k, v]): [string, string] => [VARIANT + clean(k), clean(v)]),
  ];
  return lines.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The file's text, as `writeGlossFile` writes it. */
export function glossFileText(table: GlossTable): string {
  return sortedLines(table)
    .map(([k, v]) => `${k}\t${v}\n`)
    .join('');
}

/** Lines written at once: the whole text as one string took 100 MB more at the peak for EDICT's 27 MB file. */
const LINES_PER_WRITE = 4096;

/**
 * Write `table` to `path` atomically (a temp file renamed), and remove the older files of the same
 * dictionary in its directory (names starting with `stalePrefix`).
 */
export function writeGlossFile(path: string, table: GlossTable, stalePrefix: string): void {
  const dir = join(path, '..');
  mkdirSync(dir, { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  const lines = sortedLines(table);
  const fd = openSync(temp, 'w');
  try {
    for (let i = 0; i < lines.length; i += LINES_PER_WRITE)
      writeSync(
        fd,
        lines
          .slice(i, i + LINES_PER_WRITE)
          .map(([k, v]) => `${k}\t${v}\n`)
          .join(''),
      );
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  for (const name of readdirSync(dir))
    if (name.startsWith(stalePrefix) && join(dir, name) !== path && !name.endsWith('.tmp'))
      rmSync(join(dir, name), { force: true });
}

/** A gloss file opened for lookups: nothing is read until the first. */
export interface GlossFile {
  /** The gloss of a headword ('' for a headword without one), if it is one. */
  get(word: string): string | undefined;
  /** The form a character is looked up as, if it differs. */
  variant(char: string): string | undefined;
  close(): void;
}

/**
 * Headword groups kept by an open gloss file, >= 1: a group is every headword that starts with
 * one character (about 20 on average for CC-CEDICT, 2,000 at most), read in one scan. Forward
 * maximum matching asks for up to 8 headwords from each character of a run, all in its group, and
 * a catalog's texts share their common characters. Glossing the big catalog's 6,975 tool texts
 * with both dictionaries took 3.7 s with a bisection per headword asked, 0.9 s with 512 groups
 * (0.66 s with CC-CEDICT parsed in memory).
 */
export const GROUPS_KEPT = 512;

/** Open a file written by `writeGlossFile`. */
export function openGlossFile(path: string): GlossFile {
  const lines: SortedLines = openSortedLines(path, keyOf);
  const groups = new Map<string, Map<string, string>>();
  const groupOf = (first: string): Map<string, string> => {
    let group = groups.get(first);
    if (group) {
      groups.delete(first); // most recently used last
    } else {
      group = new Map(lines.findPrefix(first).map((l) => [keyOf(l), l.slice(l.indexOf('\t') + 1)]));
      if (groups.size >= GROUPS_KEPT) groups.delete(groups.keys().next().value!);
    }
    groups.set(first, group);
    return group;
  };
  const value = (key: string): string | undefined => {
    const first = key.codePointAt(0);
    return first === undefined ? undefined : groupOf(String.fromCodePoint(first)).get(key);
  };
  return {
    get: value,
    variant: (char) => (char ? groupOf(VARIANT).get(VARIANT + char) : undefined),
    close: () => lines.close(),
  };
}

/** A dictionary whose gloss file can be derived: where it goes and how it is built. */
export interface DerivedDictionary {
  /** The file's path under `dir` for the installed dictionary version; undefined when not installed. */
  path(dir: string): string | undefined;
  /** A module (compiled JavaScript) and its export `(dir) => void` that writes the file, for a JobRunner. */
  builder: { module: string; exportName: string };
  /** Writes the file in this process (the fallback when no child process can run the builder). */
  build(dir: string): void;
}

const derived: DerivedDictionary[] = [];
let cacheDir: string | undefined;
let runSync: ((module: string, exportName: string, arg: string) => void) | undefined;

/** Registers a dictionary whose gloss file `prepareGlossFiles` builds. */
export function registerDerivedDictionary(dictionary: DerivedDictionary): void {
  derived.push(dictionary);
}

/** Options of `useGlossFiles`. */
export interface GlossFileOptions {
  /**
   * Builds a missing file away from this thread, blocking (the gateway passes a child process):
   * for a text glossed before `prepareGlossFiles` has finished. Default: built in this thread.
   */
  runSync?: (module: string, exportName: string, arg: string) => void;
}

/** Goes up when a gloss file is built by `prepareGlossFiles`, or the directory changes. */
let generation = 0;

/**
 * A number that changes when the gloss files there are may have changed: a translator that uses a
 * file only once it is built (Apertium's) looks again when it changes, and its id with it.
 */
export function glossFilesGeneration(): number {
  return generation;
}

/**
 * Where gloss files are kept (the data dir's `dictionaries/`), for this process; undefined (the
 * default) parses dictionaries in memory as before. CC-CEDICT's and EDICT's ids do not change:
 * their files gloss exactly as the parsed dictionaries do. Apertium's list exists only as a file,
 * so without a directory Spanish is glossed by FreeDict alone.
 */
export function useGlossFiles(dir: string | undefined, options: GlossFileOptions = {}): void {
  cacheDir = dir;
  runSync = options.runSync;
  generation++;
}

/**
 * The path of `dictionary`'s gloss file under the directory of `useGlossFiles`, built now if it is
 * missing (with `runSync` when given, else in this thread); undefined when it is not installed.
 */
export function ensureGlossFile(dictionary: DerivedDictionary, dir: string): string | undefined {
  const path = dictionary.path(dir);
  if (path === undefined || existsSync(path)) return path;
  if (building.has(path) && waitForFile(path, BUILD_WAIT_MS)) return path;
  try {
    runSync?.(dictionary.builder.module, dictionary.builder.exportName, dir);
  } catch {
    // built below, in this thread
  }
  if (!existsSync(path)) dictionary.build(dir);
  return path;
}

/** The directory set by `useGlossFiles`. */
export function glossFileDir(): string | undefined {
  return cacheDir;
}

const preparing = new Map<string, Promise<void>>();
/**
 * Paths whose build `prepareGlossFiles` has started and not seen end. A build still waiting in
 * the queue is not among them: a text that needs its file builds it now (`ensureGlossFile`) rather
 * than wait for the builds before it, and the queue then skips it.
 */
const building = new Set<string>();

/**
 * Longest wait, ms, for a build already under way before building again: a build takes 1.5..3 s
 * on 2 cores, two at once (the one under way and a blocking one) took 3.7 s. A build that failed
 * meanwhile is only seen when the wait ends (its failure is handled on the blocked event loop).
 */
export const BUILD_WAIT_MS = 6_000;

/** Blocks until `path` exists or `ms` have passed (the build under way renames it into place). */
function waitForFile(path: string, ms: number): boolean {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (const end = Date.now() + ms; !existsSync(path) && Date.now() < end;) Atomics.wait(cell, 0, 0, 20);
  return existsSync(path);
}

/** Runs a module's export `(arg) => void` away from this process, e.g. in a child process. */
export type JobRunner = (module: string, exportName: string, arg: string) => Promise<void>;

/** Options of `prepareGlossFiles`. */
export interface PrepareOptions {
  /** Told when a file cannot be built away from this thread, or at all. */
  warn?: (message: string) => void;
  /** Told when a build starts and when it ends, with its time: a first start's wait, explained. */
  info?: (message: string) => void;
  /**
   * Where a build runs: the gateway passes a child process, whose memory all goes back when it
   * ends (a worker thread's left 9..26 MiB behind: docs/history/search-history.md).
   */
  run: JobRunner;
}

/** The end of the build queue: a build starts when the one before it has ended. */
let queueEnd: Promise<void> = Promise.resolve();

/**
 * Build the missing gloss files of the installed dictionaries (the full parse: 1.1..1.6 s and 175 MB
 * at the peak for CC-CEDICT) away from this thread, once per process and path, one after another:
 * CC-CEDICT's, EDICT's and Apertium's builders took about 260, 380 and 180 MB at their peaks, which
 * a first start paid at once (docs/search-languages.md, "Memory and first-query time"). Never throws: a build
 * that fails there is done here, and one that fails here leaves the dictionary to be parsed in
 * memory on first use, as before.
 */
export async function prepareGlossFiles(options: PrepareOptions): Promise<void> {
  const warn = options.warn ?? (() => undefined);
  const dir = cacheDir;
  if (dir === undefined) return;
  const jobs: Promise<void>[] = [];
  for (const d of derived) {
    const path = d.path(dir);
    if (path === undefined || existsSync(path)) continue;
    let job = preparing.get(path);
    if (!job) {
      const info = options.info ?? (() => undefined);
      job = queueEnd.then(() => buildApart(d, { dir, path, run: options.run, warn, info }));
      queueEnd = job;
      preparing.set(path, job);
    }
    jobs.push(job);
  }
  await Promise.all(jobs);
}

/** One queued build: skipped if the file appeared while it waited (built on demand, `ensureGlossFile`). */
async function buildApart(
  d: DerivedDictionary,
  at: {
    dir: string;
    path: string;
    run: JobRunner;
    warn: (message: string) => void;
    info: (message: string) => void;
  },
): Promise<void> {
  const { dir, path, warn, info } = at;
  if (existsSync(path)) return;
  building.add(path);
  const started = performance.now();
  info(`building gloss file ${path} (once per dictionary version)`);
  try {
    await at.run(d.builder.module, d.builder.exportName, dir);
  } catch (err) {
    warn(`gloss file ${path} not built apart (${(err as Error).message}); building it here`);
    try {
      d.build(dir);
    } catch (e) {
      warn(`gloss file ${path} not built: ${(e as Error).message}`);
    }
  } finally {
    building.delete(path);
    if (existsSync(path)) {
      generation++;
      info(`built gloss file ${path} in ${Math.round(performance.now() - started)} ms`);
    }
  }
}

/**
 * A module of search/text as compiled JavaScript, for a child process: `moduleUrl` itself when it
 * is there (dist/search/text/, or the sources under tsx), else, from the CLI bundle (dist/carte/),
 * the tsc output `dist/search/text/<name>.js` beside it.
 */
export function compiledTextModule(moduleUrl: string, name: string): string {
  return compiledSearchModule(moduleUrl, 'text', name);
}

/** `compiledTextModule` for a module of any room of search/ (`text`, `lexical`). */
export function compiledSearchModule(moduleUrl: string, room: string, name: string): string {
  const here = fileURLToPath(moduleUrl);
  if (basename(dirname(here)) === room) return moduleUrl;
  return pathToFileURL(join(dirname(dirname(here)), 'search', room, `${name}.js`)).href;
}
