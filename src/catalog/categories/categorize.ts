// Automatic categories: a tool's words are scored against the ten category descriptions
// (category-scores.ts), then blended with the mean over its server, since most of a server's
// tools share a category (docs/menu.md, "How categories are assigned").
import { NO_TRANSLATOR, tokenize, type Translator } from '../../search/index.js';
import { CATEGORY_IDS, type CategoryId } from './categories.js';
import { fieldScorer, N } from './category-scores.js';
import { semanticScores, type SemanticEvidence } from './category-semantic.js';
import { serverTags, tagsFromWords } from '../tags/tags.js';
import { DESCRIPTION_CHARS, serverWords, toolWords, type ToolText } from '../words/tool-words.js';
import { boundWordTable, intern } from '../words/word-table.js';

/** The server whose tools are categorised together. */
export interface CategorizeServer {
  id: string;
  description?: string;
}

/** One tool as categorisation reads it. */
export interface CategorizeTool extends ToolText {
  key: string;
}

/** A tool's category and tags; `scores` (blended, best = 1) only when asked for. */
export interface ToolCategory {
  category: CategoryId;
  tags: string[];
  scores?: Record<CategoryId, number>;
}

/** Options of `categorizeServer`; every field has a default in CATEGORIZE_DEFAULTS. */
export interface CategorizeOptions {
  /**
   * Server evidence, >= 0: weight of the mean of the server's score vectors (its tools', and
   * one for its own id and description) added to each tool's own. 0 = each tool alone.
   */
  serverWeight: number;
  /** Weight of a word of the tool's name or title, relative to a description word (1). */
  nameWeight: number;
  /** Weight of a word of the tool's parameter names. */
  paramWeight: number;
  /** Return each tool's blended scores. */
  scores: boolean;
  /**
   * Glosses text in other languages (Chinese) into English words, scored as description words
   * beside the original (docs/menu.md: measured, off by default).
   */
  translator: Translator;
  /** Semantic evidence added to each tool's blended scores (category-semantic.ts); none by default. */
  semantic: SemanticEvidence | undefined;
}

export const CATEGORIZE_DEFAULTS: CategorizeOptions = {
  serverWeight: 1,
  nameWeight: 2,
  paramWeight: 1,
  scores: false,
  translator: NO_TRANSLATOR,
  semantic: undefined,
};

/** The category of a tool with no evidence at all (no known word, on a server that says nothing). */
export const FALLBACK_CATEGORY: CategoryId = 'utilities';

const NO_WORDS: readonly number[] = [];

/** Mean of the vectors. */
function mean(vectors: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(N);
  for (const v of vectors) for (let c = 0; c < N; c++) out[c]! += v[c]! / vectors.length;
  return out;
}

/** The best category; ties go to the earlier id in CATEGORY_IDS, no evidence to the fallback. */
function pick(scores: Float64Array): CategoryId {
  let best = -1;
  for (let c = 0; c < N; c++) if (scores[c]! > 0 && (best < 0 || scores[c]! > scores[best]!)) best = c;
  return best < 0 ? FALLBACK_CATEGORY : CATEGORY_IDS[best]!;
}

/** Categorise and tag one server's tools together; the map is keyed by tool key, in input order. */
export function categorizeServer(
  server: CategorizeServer,
  tools: readonly CategorizeTool[],
  options: Partial<CategorizeOptions> = {},
): Map<string, ToolCategory> {
  const opts = { ...CATEGORIZE_DEFAULTS, ...options };
  boundWordTable(); // before any id of this server is held
  const serverText = serverWords(server);
  const words = tools.map(toolWords);
  const gloss = (...texts: (string | undefined)[]): readonly number[] =>
    opts.translator === NO_TRANSLATOR
      ? NO_WORDS
      : tokenize(opts.translator.gloss(texts.join(' '))).map(intern);
  // Fields: name, title, description, parameter names, glosses; the server's id, description, gloss.
  const scoreTool = fieldScorer([opts.nameWeight, opts.nameWeight, 1, opts.paramWeight, 1]);
  const own = words.map((w, i) =>
    scoreTool([
      w.name,
      w.title,
      w.description,
      w.params,
      gloss(tools[i]!.name, tools[i]!.title, tools[i]!.description?.slice(0, DESCRIPTION_CHARS)),
    ]),
  );
  const serverOwn = fieldScorer([opts.nameWeight, 1, 1])([
    serverText.id,
    serverText.description,
    gloss(server.description?.slice(0, DESCRIPTION_CHARS)),
  ]);
  const evidence = mean([...own, serverOwn]);
  const fromServer = serverTags(serverText);
  const result = new Map<string, ToolCategory>();
  tools.forEach((tool, i) => {
    const blended = own[i]!;
    for (let c = 0; c < N; c++) blended[c]! += opts.serverWeight * evidence[c]!;
    const vector = opts.semantic?.vectors.get(tool.key);
    if (vector) {
      const semantic = semanticScores(vector, opts.semantic!.categories);
      for (let c = 0; c < N; c++) blended[c]! += opts.semantic!.weight * semantic[c]!;
    }
    const entry: ToolCategory = { category: pick(blended), tags: tagsFromWords(words[i]!, fromServer) };
    if (opts.scores) entry.scores = scoreRecord(blended);
    result.set(tool.key, entry);
  });
  return result;
}

/** Scores rounded to 3 decimals, best = 1 (all 0 without evidence). */
function scoreRecord(scores: Float64Array): Record<CategoryId, number> {
  const top = Math.max(...scores) || 1;
  const entries = CATEGORY_IDS.map((id, c) => [id, Math.round((scores[c]! / top) * 1000) / 1000]);
  return Object.fromEntries(entries) as Record<CategoryId, number>;
}
