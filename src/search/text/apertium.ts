// Apertium's Spanish -> English bilingual dictionary (Debian's `apertium-eng-spa`, GPL) as a second
// Spanish word list beside FreeDict, read at run time from where Debian puts it: none of its data is
// copied into this repository (docs/search-languages.md, "Apertium"). Its compiled transducer is printed once by
// `lt-print` (in a child process, src/upstream/apertium-job.ts) and kept as a gloss file.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  GLOSS_FILE_FORMAT,
  openGlossFile,
  registerDerivedDictionary,
  writeGlossFile,
  type DerivedDictionary,
  type GlossTable,
} from './gloss-file.js';

/** Where Debian's `apertium-eng-spa` puts its compiled data. */
export const APERTIUM_DIR = '/usr/share/apertium/apertium-eng-spa';
/** The Spanish -> English bilingual transducer in it. */
export const APERTIUM_BIDIX = 'spa-eng.autobil.bin';

/** Entries that are not words worth glossing: proper nouns, numbers, punctuation. */
const NOT_A_WORD = /<(np|num|sym|sent|cm|lpar|rpar|lquest|guio|apos|quot)>/;
/** Separates a headword's part-of-speech groups in the gloss file's value. */
const GROUP = ' | ';

/** The installed bidix and its version (its size and date: a package upgrade changes them), or undefined. */
export function findApertium(dir: string = APERTIUM_DIR): { file: string; version: string } | undefined {
  const file = join(dir, APERTIUM_BIDIX);
  if (!existsSync(file)) return undefined;
  const { size, mtimeMs } = statSync(file);
  return { file, version: `${size}-${Math.floor(mtimeMs / 1000)}` };
}

/**
 * The `input:output` paths of a transducer printed by `lt-print` (AT&T lines `from to in out
 * weight`, final states alone on a line, sections split by `--`). Only the largest section is
 * read: the dictionary proper; the small ones are number and punctuation patterns whose loops
 * spell endless paths. A state already on the path is not entered again.
 */
export function transducerPaths(att: string): [string, string][] {
  const section = att.split(/^--$/m).reduce((a, b) => (b.length > a.length ? b : a), '');
  const arcs = new Map<string, [string, string, string][]>();
  const finals = new Set<string>();
  const symbol = (s: string): string => (s === 'ε' || s === '@0@' ? '' : s);
  for (const line of section.split('\n')) {
    const f = line.split('\t');
    if (f.length >= 4) {
      const list = arcs.get(f[0]!) ?? [];
      list.push([f[1]!, symbol(f[2]!), symbol(f[3]!)]);
      arcs.set(f[0]!, list);
    } else if (f[0]!.trim()) finals.add(f[0]!.trim());
  }
  const out: [string, string][] = [];
  const onPath = new Set<string>();
  // An explicit stack: a path is as long as its entry (up to a few hundred symbols).
  const stack: { state: string; input: string; output: string; next: number }[] = [];
  const enter = (state: string, input: string, output: string): void => {
    if (finals.has(state)) out.push([input, output]);
    onPath.add(state);
    stack.push({ state, input, output, next: 0 });
  };
  if (arcs.has('0') || finals.has('0')) enter('0', '', '');
  while (stack.length) {
    const top = stack.at(-1)!;
    const arc = arcs.get(top.state)?.[top.next++];
    if (!arc) {
      onPath.delete(top.state);
      stack.pop();
    } else if (!onPath.has(arc[0])) enter(arc[0], top.input + arc[1], top.output + arc[2]);
  }
  return out;
}

const untag = (s: string): string =>
  s
    .replace(/<[^>]*>/g, ' ')
    .replace(/[#/,;|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The gloss table of the bidix: each Spanish lemma (lower case) to its English translations,
 * grouped by part of speech in dictionary order (`gráfico` → `graphic | chart graph`-like groups,
 * each group one FreeDict-like entry), proper nouns and numbers left out.
 */
export function apertiumTable(att: string): GlossTable {
  const groups = new Map<string, Map<string, string[]>>();
  for (const [input, output] of transducerPaths(att)) {
    if (NOT_A_WORD.test(input)) continue;
    const lemma = untag(input.replace(/<.*$/, '')).toLowerCase();
    const pos = /<([^>]+)>/.exec(input)?.[1] ?? '';
    const gloss = untag(output);
    if (!/\p{L}/u.test(lemma) || !gloss) continue;
    const byPos = groups.get(lemma) ?? new Map<string, string[]>();
    const list = byPos.get(pos) ?? [];
    if (!list.includes(gloss)) list.push(gloss);
    groups.set(lemma, byPos.set(pos, list));
  }
  const glosses = new Map<string, string>();
  for (const [lemma, byPos] of groups)
    glosses.set(lemma, [...byPos.values()].map((list) => list.join(', ')).join(GROUP));
  return { glosses, variants: new Map() };
}

/** One gloss file value as FreeDict-like entries (`word\ngloss, gloss\n`), one per part of speech. */
export function apertiumEntries(word: string, value: string | undefined): string[] {
  return value ? value.split(GROUP).map((group) => `${word}\n${group}\n`) : [];
}

/** Version of the rule of `apertiumTable`: it names the gloss file (bump it with any change). */
export const APERTIUM_RULE_VERSION = 1;
const FILE_PREFIX = 'apertium-spa-eng@';

/** The gloss file of the installed bidix under `dir`; undefined when the package is not installed. */
export function apertiumGlossFilePath(dir: string, from: string = APERTIUM_DIR): string | undefined {
  const found = findApertium(from);
  const name = `${FILE_PREFIX}${found?.version}.rule${APERTIUM_RULE_VERSION}.v${GLOSS_FILE_FORMAT}.gloss`;
  return found && join(dir, name);
}

/** Write the gloss file under `dir` from the bidix printed by `lt-print` (the child job's second half). */
export function writeApertiumGlossFile(dir: string, att: string): void {
  const path = apertiumGlossFilePath(dir);
  if (path) writeGlossFile(path, apertiumTable(att), FILE_PREFIX);
}

/**
 * The child job's module (compiled JavaScript): src/upstream/apertium-job.ts, the only side that may
 * spawn `lt-print`. Run from the TypeScript sources (tsx, vitest), the tsc output in dist/ is used.
 */
function jobModule(): string {
  const here = fileURLToPath(import.meta.url);
  const root = basename(dirname(here)) === 'text' ? dirname(dirname(dirname(here))) : dirname(dirname(here));
  const dist = here.endsWith('.ts') ? join(dirname(root), 'dist') : root;
  return pathToFileURL(join(dist, 'upstream', 'apertium-job.js')).href;
}

const APERTIUM_GLOSS_FILE: DerivedDictionary = {
  path: (dir) => apertiumGlossFilePath(dir),
  builder: { module: jobModule(), exportName: 'buildApertiumGlossFile' },
  build: () => {
    throw new Error('the Apertium gloss file is built only in a child process (lt-print)');
  },
};
registerDerivedDictionary(APERTIUM_GLOSS_FILE);

/**
 * A word list over the gloss file under `dir`, or undefined while it is not built (or the package
 * is not installed). It is never built here: only `prepareGlossFiles` builds it, in a child process
 * (`lt-print`); until then Spanish is glossed by FreeDict alone and the translator's id says so.
 */
export function openApertiumLookup(dir: string): { lookup(word: string): string[] } | undefined {
  const path = apertiumGlossFilePath(dir);
  if (!path || !existsSync(path)) return undefined;
  const file = openGlossFile(path);
  return { lookup: (word) => apertiumEntries(word, file.get(word.toLowerCase())) };
}
