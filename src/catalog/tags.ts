// Tags inferred from a tool's words: what it does (function), and the languages, frameworks and
// technologies it names. Fixed vocabularies matched on tokens, never a rule about one tool.
import { serverWords, toolWords, type ServerWords, type ToolText, type ToolWords } from './tool-words.js';
import { FUNCTION_VERBS, VOCABULARY } from './tag-vocabulary.js';

/** The kinds of tags, in the order a tool's tags are listed. */
export const TAG_KINDS = ['function', 'language', 'framework', 'technology'] as const;
export type TagKind = (typeof TAG_KINDS)[number];

/** Distinct words whose verb tag is remembered (bounds memory). */
const VERB_MEMO_SIZE = 10_000;

/** Word -> function tag (a verb listed twice keeps its first tag). */
const VERB_TAG = new Map<string, string>();
for (const [tag, verbs] of Object.entries(FUNCTION_VERBS)) {
  for (const v of verbs.split(' ')) if (!VERB_TAG.has(v)) VERB_TAG.set(v, tag);
}

interface Entry {
  tag: string;
  words: readonly string[];
}

const VOCABULARY_KINDS = ['language', 'framework', 'technology'] as const;

/** First word -> the entries that start with it, longest first. */
const ENTRIES = new Map<string, Entry[]>();
for (const kind of VOCABULARY_KINDS) {
  for (const [tag, forms] of Object.entries(VOCABULARY[kind])) {
    for (const form of (forms as string).split(', ')) {
      const words = form.split(' ');
      const list = ENTRIES.get(words[0]!) ?? [];
      list.push({ tag, words });
      list.sort((a, b) => b.words.length - a.words.length);
      ENTRIES.set(words[0]!, list);
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

const verbMemo = new Map<string, string | null>();

/** Inflected verb forms (updates, created, listing) -> the function tag of the listed verb. */
function verbTag(word: string): string | undefined {
  let tag = verbMemo.get(word);
  if (tag === undefined) {
    const forms = baseForms(word);
    tag = forms.map((f) => VERB_TAG.get(f)).find((t) => t !== undefined) ?? null;
    if (verbMemo.size < VERB_MEMO_SIZE) verbMemo.set(word, tag);
  }
  return tag ?? undefined;
}

/**
 * The function tag: the name's first verb (names are verb_object, and a later word is more often
 * a noun: get_latest_posts), else the description's first word ("Retrieves ...").
 */
function functionTag(name: readonly string[], description: readonly string[]): string | undefined {
  for (const w of name) {
    const tag = verbTag(w);
    if (tag) return tag;
  }
  return description[0] === undefined ? undefined : verbTag(description[0]);
}

/** Every tag's position in the output order: function tags, then each kind in vocabulary order. */
const RANK = new Map<string, number>(
  [Object.keys(FUNCTION_VERBS), ...VOCABULARY_KINDS.map((kind) => Object.keys(VOCABULARY[kind]))]
    .flat()
    .map((tag, i) => [tag, i]),
);

/** Adds the vocabulary tags found in the token sequence to `found`. */
function vocabularyTags(tokens: readonly string[], found: Set<string>): void {
  for (let i = 0; i < tokens.length; i++) {
    const entries = ENTRIES.get(tokens[i]!);
    if (!entries) continue;
    for (const entry of entries) {
      if (entry.words.every((w, j) => tokens[i + j] === w)) {
        // "react to a message" is not React.
        if (entry.tag === 'react' && entry.words.length === 1 && tokens[i + 1] === 'to') continue;
        found.add(entry.tag);
        break;
      }
    }
  }
}

/** A tool's tags from its words: the function tag first, then languages, frameworks, technologies. */
export function tagsFromWords(tool: ToolWords, server: ServerWords): string[] {
  const found = new Set<string>();
  const fn = functionTag(tool.name, tool.description);
  if (fn) found.add(fn);
  for (const words of [tool.name, tool.title, tool.description, tool.params, server.id, server.description]) {
    vocabularyTags(words, found);
  }
  return [...found].sort((a, b) => RANK.get(a)! - RANK.get(b)!);
}

/** A tool's tags (see tagsFromWords), each kind in vocabulary order. */
export function inferTags(tool: ToolText, server: { id: string; description?: string }): string[] {
  return tagsFromWords(toolWords(tool), serverWords(server));
}
