// The plain categoriser that `categorizeServer` must equal, for tests and bench/quality (not used
// by the gateway): the method as first written, on strings (search/text/tokenize.ts's tokens, word
// scores in a map, tags matched on token strings), before word ids, the scanner and the per-id
// caches made it fast (docs/menu.md, Speed). Same category, tags and scores, bit for bit.
import { NO_TRANSLATOR, tokenize } from '../../search/index.js';
import { CATEGORY_IDS, type CategoryId } from './categories.js';
import {
  CATEGORIZE_DEFAULTS,
  FALLBACK_CATEGORY,
  type CategorizeOptions,
  type CategorizeServer,
  type CategorizeTool,
  type ToolCategory,
} from './categorize.js';
import { N, searchWordScores } from './category-scores.js';
import { semanticScores } from './category-semantic.js';
import { FUNCTION_VERBS, VOCABULARY } from '../tags/tag-vocabulary.js';
import { DESCRIPTION_CHARS } from '../words/tool-words.js';

const wordScores = new Map<string, Float64Array | null>();

/** Sum of weight × scores over the distinct words, each with the weight of its heaviest field. */
function scoreWords(fields: [string[], number][]): Float64Array {
  const total = new Float64Array(N);
  const seen = new Set<string>();
  for (const [words, weight] of [...fields].sort((a, b) => b[1] - a[1])) {
    for (const word of words) {
      if (seen.has(word)) continue;
      seen.add(word);
      if (!wordScores.has(word)) wordScores.set(word, searchWordScores(word));
      const s = wordScores.get(word);
      if (s) for (let c = 0; c < N; c++) if (s[c]! > 0) total[c]! += weight * s[c]!;
    }
  }
  return total;
}

const KINDS = ['language', 'framework', 'technology'] as const;
const ORDER = [Object.keys(FUNCTION_VERBS), ...KINDS.map((kind) => Object.keys(VOCABULARY[kind]))].flat();
const VERBS = Object.entries(FUNCTION_VERBS).flatMap(([tag, verbs]) => verbs.split(' ').map((v) => [v, tag]));
const FORMS = KINDS.flatMap((kind) =>
  Object.entries(VOCABULARY[kind]).flatMap(([tag, forms]) =>
    (forms as string).split(', ').map((form) => ({ tag, words: form.split(' ') })),
  ),
);

/** The function tag of a word: the first listed verb among it and its forms without an ending. */
function verbTag(word: string | undefined): string | undefined {
  if (word === undefined) return undefined;
  const forms = [word];
  for (const [suffix, add] of [
    ['s', ''],
    ['es', ''],
    ['ies', 'y'],
    ['d', ''],
    ['ed', ''],
    ['ing', ''],
    ['ing', 'e'],
  ]) {
    if (word.length > suffix!.length + 2 && word.endsWith(suffix!))
      forms.push(word.slice(0, -suffix!.length) + add);
  }
  for (const form of forms) for (const [verb, tag] of VERBS) if (verb === form) return tag;
  return undefined;
}

/**
 * Vocabulary tags: at each position, the longest form starting there (vocabulary order among
 * equals), except a lone "react" before "to", which gives way to the next form that matches.
 */
function vocabularyTags(tokens: string[], found: Set<string>): void {
  tokens.forEach((_, i) => {
    const forms = FORMS.filter((f) => f.words.every((w, j) => tokens[i + j] === w));
    const first = forms
      .sort((a, b) => b.words.length - a.words.length)
      .find((f) => !(f.tag === 'react' && f.words.length === 1 && tokens[i + 1] === 'to'));
    if (first) found.add(first.tag);
  });
}

/** The reference `categorizeServer` (categorize.ts): same options, same answer. */
export function categorizeServerReference(
  server: CategorizeServer,
  tools: readonly CategorizeTool[],
  options: Partial<CategorizeOptions> = {},
): Map<string, ToolCategory> {
  const opts = { ...CATEGORIZE_DEFAULTS, ...options };
  const cut = (text: string | undefined): string => (text ?? '').slice(0, DESCRIPTION_CHARS);
  const gloss = (...texts: (string | undefined)[]): string[] =>
    opts.translator === NO_TRANSLATOR ? [] : tokenize(opts.translator.gloss(texts.join(' ')));
  const serverId = tokenize(server.id.slice(server.id.lastIndexOf('/') + 1));
  const serverDescription = tokenize(cut(server.description));
  const words = tools.map((t) => ({
    name: tokenize(t.name),
    title: tokenize(t.title ?? ''),
    description: tokenize(cut(t.description)),
    params: tokenize(t.paramNames.join(' ')),
  }));
  const own = words.map((w, i) =>
    scoreWords([
      [w.name, opts.nameWeight],
      [w.title, opts.nameWeight],
      [w.description, 1],
      [w.params, opts.paramWeight],
      [gloss(tools[i]!.name, tools[i]!.title, tools[i]!.description?.slice(0, DESCRIPTION_CHARS)), 1],
    ]),
  );
  own.push(
    scoreWords([
      [serverId, opts.nameWeight],
      [serverDescription, 1],
      [gloss(server.description?.slice(0, DESCRIPTION_CHARS)), 1],
    ]),
  );
  const evidence = new Float64Array(N);
  for (const v of own) for (let c = 0; c < N; c++) evidence[c]! += v[c]! / own.length;
  const result = new Map<string, ToolCategory>();
  tools.forEach((tool, i) => {
    const blended = own[i]!;
    for (let c = 0; c < N; c++) blended[c]! += opts.serverWeight * evidence[c]!;
    const vector = opts.semantic?.vectors.get(tool.key);
    if (vector) {
      const semantic = semanticScores(vector, opts.semantic!.categories);
      for (let c = 0; c < N; c++) blended[c]! += opts.semantic!.weight * semantic[c]!;
    }
    let best = -1;
    for (let c = 0; c < N; c++) if (blended[c]! > 0 && (best < 0 || blended[c]! > blended[best]!)) best = c;
    const w = words[i]!;
    const found = new Set<string>();
    const fn = w.name.map(verbTag).find((t) => t !== undefined) ?? verbTag(w.description[0]);
    if (fn) found.add(fn);
    for (const list of [w.name, w.title, w.description, w.params, serverId, serverDescription]) {
      vocabularyTags(list, found);
    }
    const entry: ToolCategory = {
      category: best < 0 ? FALLBACK_CATEGORY : CATEGORY_IDS[best]!,
      tags: [...found].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)),
    };
    if (opts.scores) {
      const top = Math.max(...blended) || 1;
      const entries = CATEGORY_IDS.map((id, c) => [id, Math.round((blended[c]! / top) * 1000) / 1000]);
      entry.scores = Object.fromEntries(entries) as Record<CategoryId, number>;
    }
    result.set(tool.key, entry);
  });
  return result;
}
