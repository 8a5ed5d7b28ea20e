// Tags inferred from a tool's words: what it does (function), and the languages, frameworks and
// technologies it names. Fixed vocabularies matched on tokens, never a rule about one tool.
import { FUNCTION_VERBS, VOCABULARY } from './tag-vocabulary.js';
import {
  serverWords,
  toolWords,
  type ServerWords,
  type ToolText,
  type ToolWords,
  type WordIds,
} from '../words/tool-words.js';
import { boundWordTable, wordCount, wordGeneration, wordOf } from '../words/word-table.js';

/** The kinds of tags, in the order a tool's tags are listed. */
export const TAG_KINDS = ['function', 'language', 'framework', 'technology'] as const;
export type TagKind = (typeof TAG_KINDS)[number];

const VOCABULARY_KINDS = ['language', 'framework', 'technology'] as const;

/** Every tag in output order (function tags, then each kind in vocabulary order); a tag's rank is its index. */
const TAGS_IN_ORDER = [
  Object.keys(FUNCTION_VERBS),
  ...VOCABULARY_KINDS.map((k) => Object.keys(VOCABULARY[k])),
].flat();
const RANK = new Map<string, number>(TAGS_IN_ORDER.map((tag, i) => [tag, i]));

/** Word -> function tag (a verb listed twice keeps its first tag). */
const VERB_TAG = new Map<string, string>();
for (const [tag, verbs] of Object.entries(FUNCTION_VERBS)) {
  for (const v of verbs.split(' ')) if (!VERB_TAG.has(v)) VERB_TAG.set(v, tag);
}

interface Entry {
  tag: string;
  rank: number;
  words: readonly string[];
}

/** The entries that start with the same word, longest first; ENTRY_LIST maps the first word to its index. */
const ENTRY_LISTS: Entry[][] = [];
const ENTRY_LIST = new Map<string, number>();
for (const kind of VOCABULARY_KINDS) {
  for (const [tag, forms] of Object.entries(VOCABULARY[kind])) {
    for (const form of (forms as string).split(', ')) {
      const words = form.split(' ');
      let i = ENTRY_LIST.get(words[0]!);
      if (i === undefined) ENTRY_LIST.set(words[0]!, (i = ENTRY_LISTS.push([]) - 1));
      ENTRY_LISTS[i]!.push({ tag, rank: RANK.get(tag)!, words });
      ENTRY_LISTS[i]!.sort((a, b) => b.words.length - a.words.length);
    }
  }
}

/** The kind of a tag this module infers, or undefined for a tag it never gives. */
export function tagKind(tag: string): TagKind | undefined {
  if (Object.hasOwn(FUNCTION_VERBS, tag)) return 'function';
  for (const kind of VOCABULARY_KINDS) if (Object.hasOwn(VOCABULARY[kind], tag)) return kind;
  return undefined;
}

/** A word and its forms without a regular English ending (finds, updated, listing -> find, update, list). */
function baseForms(word: string): string[] {
  const forms = [word];
  const strip = (suffix: string, add = ''): void => {
    if (word.length > suffix.length + 2 && word.endsWith(suffix))
      forms.push(word.slice(0, -suffix.length) + add);
  };
  strip('s');
  strip('es');
  strip('ies', 'y');
  strip('d');
  strip('ed');
  strip('ing');
  strip('ing', 'e');
  return forms;
}

/**
 * Per word id (word-table.ts), -1 while not computed: the rank + 1 of its function tag (0 for
 * none), and the index + 1 of the entry list it starts (0 for none).
 */
let verbRank: Int16Array = new Int16Array(0);
let entryList: Int16Array = new Int16Array(0);
let tableGeneration = -1;

/** Makes the per-id caches cover every id of the word table, dropping them when it started over. */
function cover(): void {
  if (tableGeneration !== wordGeneration()) {
    tableGeneration = wordGeneration();
    verbRank = entryList = new Int16Array(0);
  }
  if (wordCount() <= verbRank.length) return;
  const size = Math.max(wordCount(), verbRank.length * 2, 1024);
  verbRank = grown(verbRank, size);
  entryList = grown(entryList, size);
}

/** A copy of `old` of `size` elements, the new ones -1 (not computed). */
function grown(old: Int16Array, size: number): Int16Array {
  const copy = new Int16Array(size).fill(-1);
  copy.set(old);
  return copy;
}

/** The rank + 1 of a word's function tag (inflected verb forms: updates, created, listing), 0 for none. */
function verbTag(id: number): number {
  let rank = verbRank[id]!;
  if (rank < 0) {
    const tag = baseForms(wordOf(id))
      .map((f) => VERB_TAG.get(f))
      .find((t) => t !== undefined);
    verbRank[id] = rank = tag === undefined ? 0 : RANK.get(tag)! + 1;
  }
  return rank;
}

/**
 * The function tag's rank + 1 (0 for none): the name's first verb (names are verb_object, and a
 * later word is more often a noun: get_latest_posts), else the description's first word ("Retrieves ...").
 */
function functionTag(name: WordIds, description: WordIds): number {
  for (let i = 0; i < name.length; i++) {
    const rank = verbTag(name[i]!);
    if (rank) return rank;
  }
  return description.length === 0 ? 0 : verbTag(description[0]!);
}

/** The entries that start with a word, or undefined. */
function entriesOf(id: number): Entry[] | undefined {
  let list = entryList[id]!;
  if (list < 0) entryList[id] = list = (ENTRY_LIST.get(wordOf(id)) ?? -1) + 1;
  return list ? ENTRY_LISTS[list - 1] : undefined;
}

/** Whether the words of `entry` start at position i of the token sequence. */
function startsAt(tokens: WordIds, i: number, entry: Entry): boolean {
  if (i + entry.words.length > tokens.length) return false;
  for (let j = 1; j < entry.words.length; j++) if (wordOf(tokens[i + j]!) !== entry.words[j]) return false;
  return true;
}

/** Adds the ranks of the vocabulary tags found in the token sequence to `found` (no repeats). */
function vocabularyTags(tokens: WordIds, found: number[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const entries = entriesOf(tokens[i]!);
    if (!entries) continue;
    for (const entry of entries) {
      if (!startsAt(tokens, i, entry)) continue;
      // "react to a message" is not React.
      if (
        entry.tag === 'react' &&
        entry.words.length === 1 &&
        i + 1 < tokens.length &&
        wordOf(tokens[i + 1]!) === 'to'
      )
        continue;
      if (!found.includes(entry.rank)) found.push(entry.rank);
      break;
    }
  }
}

/** The vocabulary tags of a server's id and description, as ranks: each of its tools has them. */
export function serverTags(server: ServerWords): readonly number[] {
  cover();
  const found: number[] = [];
  vocabularyTags(server.id, found);
  vocabularyTags(server.description, found);
  return found;
}

/**
 * A tool's tags from its words and its server's (`serverTags`): the function tag first, then
 * languages, frameworks, technologies, each kind in vocabulary order.
 */
export function tagsFromWords(tool: ToolWords, server: readonly number[]): string[] {
  cover();
  const found: number[] = [];
  const fn = functionTag(tool.name, tool.description);
  if (fn) found.push(fn - 1);
  for (const words of [tool.name, tool.title, tool.description, tool.params]) vocabularyTags(words, found);
  for (const rank of server) if (!found.includes(rank)) found.push(rank);
  return tagsOfRanks(found);
}

/** The tags of distinct ranks, in rank order (a few: an insertion sort). */
function tagsOfRanks(ranks: number[]): string[] {
  for (let i = 1; i < ranks.length; i++) {
    const r = ranks[i]!;
    let j = i;
    for (; j > 0 && ranks[j - 1]! > r; j--) ranks[j] = ranks[j - 1]!;
    ranks[j] = r;
  }
  const tags: string[] = [];
  for (const rank of ranks) tags.push(TAGS_IN_ORDER[rank]!);
  return tags;
}

/** A tool's tags (see tagsFromWords), each kind in vocabulary order. */
export function inferTags(tool: ToolText, server: { id: string; description?: string }): string[] {
  boundWordTable();
  return tagsFromWords(toolWords(tool), serverTags(serverWords(server)));
}
