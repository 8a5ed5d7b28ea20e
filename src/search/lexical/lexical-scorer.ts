// Lexical scoring of one query: analysed words, typo fixes and synonyms, BM25F, server evidence.
import { analyze, surfaceWords } from '../text/analyze.js';
import { bm25fIndex, buildPostingsFromIds, TermIds, type PostingsTable, type WeightedTerm } from './bm25f.js';
import { GLOSS_WEIGHT, pickStemmer, TYPO_WEIGHT, type RankerOptions } from './options.js';
import type { Candidates } from '../rank/ranking.js';
import { buildServerPostings, serverEvidence } from './server-evidence.js';
import { buildSynonymTable } from './synonyms.js';
import { buildTypoCorrector } from '../text/typo.js';
import type { SearchDoc } from '../query/types.js';

/** A reusable scorer over a fixed catalog. */
export interface LexicalScorer {
  /** Index terms of a text, analysed as the index analyses it. */
  readonly terms: (text: string) => string[];
  /** Score a query. The returned arrays are reused by the next call: read them before calling again. */
  score(query: string): Candidates & { score: Float64Array };
  /** What the scorer learnt from the catalog, for a snapshot. */
  readonly state: LexicalState;
}

/**
 * Everything the lexical scorer derives from the catalog's text: the costly part of building it
 * (tokenising and stemming every field). Stored as a snapshot, it makes a cold start cheap.
 */
export interface LexicalState {
  /** BM25F postings over tools. */
  tools: PostingsTable;
  /** BM25F postings over one pseudo-document per server (server-evidence.ts). */
  servers: PostingsTable;
  /** How many tools use each surface (unstemmed) word: the typo corrector's dictionary. */
  surfaceFrequency: ReadonlyMap<string, number>;
  /** Per tool, the index terms of its name and title. */
  nameTerms: readonly ReadonlySet<string>[];
  /** Per tool, the words of each field: a subset's state is derived from them (`subsetLexicalState`). */
  words: ToolWords;
}

/**
 * Fields per tool, in FieldIds (DEFAULT_BM25F) order: name, title, description, params, server id,
 * server description, gloss, use cases.
 */
export const TOOL_FIELDS = 8;
/** The order `analyseCatalog` reads a tool's fields in: its own four, its use cases, its gloss, then its server's two. */
const ANALYSIS_ORDER = [0, 1, 2, 3, 7, 6, 4, 5] as const;

/**
 * Every tool's analysed text as word ids, each occurrence in field order: what tokenising, stemming
 * and glossing gave, kept so that the state of any subset of the tools can be derived without
 * analysing them again (a caller's index holds only what its policy lists).
 */
export interface ToolWords {
  /** The surface words, by word id. */
  words: readonly string[];
  /** Each word's index term (stem), by word id, as an index into `terms`. */
  termOf: Int32Array;
  terms: readonly string[];
  /** Tool i's field f is `ids[starts[i * TOOL_FIELDS + f] .. starts[i * TOOL_FIELDS + f + 1])`. */
  starts: Int32Array;
  ids: Int32Array;
}

function numberServers(docs: readonly SearchDoc[]): { serverOf: Int32Array; count: number } {
  const ids = new Map<string, number>();
  const serverOf = Int32Array.from(docs, (d) => {
    if (!ids.has(d.server)) ids.set(d.server, ids.size);
    return ids.get(d.server)!;
  });
  return { serverOf, count: ids.size };
}

/**
 * Tokenise, stem and index the catalog: the state a scorer is built from. Words are interned
 * once (surface word -> id -> term id), so the per-token work is one map lookup.
 */
export function analyseCatalog(docs: readonly SearchDoc[], opts: RankerOptions): LexicalState {
  const stem = pickStemmer(opts.stemmer);
  const terms = new TermIds();
  const wordIds = new Map<string, number>();
  const words: string[] = [];
  const wordTerm: number[] = [];
  const wordTools: number[] = []; // how many tools use the word
  const wordLastTool: number[] = [];
  /** Counts word `id` once per tool, for the typo dictionary. */
  const countFor = (id: number, tool: number): void => {
    if (wordLastTool[id] === tool) return;
    wordLastTool[id] = tool;
    wordTools[id]!++;
  };
  /** Word ids of `text`'s words; each also goes to `seen` when given. */
  const analyse = (text: string | undefined, tool: number, seen?: number[]): number[] => {
    const out: number[] = [];
    for (const w of surfaceWords(text ?? '', opts.stopWords)) {
      let id = wordIds.get(w);
      if (id === undefined) {
        id = words.length;
        wordIds.set(w, id);
        words.push(w);
        wordTerm.push(terms.id(stem(w)));
        wordTools.push(0);
        wordLastTool.push(-1);
      }
      countFor(id, tool);
      seen?.push(id);
      out.push(id);
    }
    return out;
  };
  // A server's id and description are the same for each of its tools: analysed once per server,
  // their words counted again for each tool (as if analysed there).
  const serverFields = new Map<string, { ids: number[][]; words: number[] }>();
  const wordFields: number[][][] = docs.map((d, i) => {
    const own = [d.name, d.title, d.description, (d.paramNames ?? []).join(' ')].map((t) => analyse(t, i));
    // Each phrase on its own line, so the tokenizer never joins the end of one to the next.
    const useCases = analyse(d.useCases?.join('\n'), i);
    const gloss = analyse(opts.translator.gloss(`${d.title ?? ''}\n${d.description ?? ''}`), i);
    const serverKey = `${d.server}\n${d.serverDescription ?? ''}`;
    let server = serverFields.get(serverKey);
    if (server) {
      for (const id of server.words) countFor(id, i);
    } else {
      const seen: number[] = [];
      server = { ids: [d.server, d.serverDescription].map((t) => analyse(t, i, seen)), words: seen };
      serverFields.set(serverKey, server);
    }
    return [...own, ...server.ids, gloss, useCases];
  });
  const surfaceFrequency = new Map<string, number>();
  words.forEach((w, id) => surfaceFrequency.set(w, wordTools[id]!));
  const toolWords = flattenWords(wordFields, {
    words,
    termOf: Int32Array.from(wordTerm),
    terms: terms.terms,
  });
  return stateOf(docs, toolWords, surfaceFrequency, opts);
}

/** The postings and name terms of `docs` from their words (`surfaceFrequency` counted by the caller). */
function stateOf(
  docs: readonly SearchDoc[],
  words: ToolWords,
  surfaceFrequency: Map<string, number>,
  opts: RankerOptions,
): LexicalState {
  const fields = docs.map((_, i) => toolFields(words, i));
  const { serverOf, count } = numberServers(docs);
  return {
    tools: buildPostingsFromIds(fields, words.terms, opts.bm25f),
    servers: buildServerPostings(fields, words.terms, serverOf, count),
    surfaceFrequency,
    nameTerms: fields.map((f) => new Set([...f[0]!, ...f[1]!].map((id) => words.terms[id]!))),
    words,
  };
}

/** Per-tool word ids per field, flattened. */
function flattenWords(
  wordFields: readonly (readonly ArrayLike<number>[])[],
  vocabulary: Pick<ToolWords, 'words' | 'termOf' | 'terms'>,
): ToolWords {
  const starts = new Int32Array(wordFields.length * TOOL_FIELDS + 1);
  let total = 0;
  wordFields.forEach((fields, i) =>
    fields.forEach((ids, f) => {
      starts[i * TOOL_FIELDS + f] = total;
      total += ids.length;
    }),
  );
  starts[wordFields.length * TOOL_FIELDS] = total;
  const ids = new Int32Array(total);
  let at = 0;
  for (const fields of wordFields)
    for (const f of fields) {
      ids.set(f, at);
      at += f.length;
    }
  return { ...vocabulary, starts, ids };
}

/** Tool i's fields as term ids (into `words.terms`). */
function toolFields(words: ToolWords, i: number): number[][] {
  return fieldsOf(words, i).map((ids) => Array.from(ids, (id) => words.termOf[id]!));
}

/** Tool i's fields as word ids (views into `words.ids`). */
function fieldsOf(words: ToolWords, i: number): Int32Array[] {
  const at = i * TOOL_FIELDS;
  return Array.from({ length: TOOL_FIELDS }, (_, f) =>
    words.ids.subarray(words.starts[at + f], words.starts[at + f + 1]),
  );
}

/**
 * The state `analyseCatalog` would give for the tools `keep` (ascending indexes into the docs
 * `state` was made from; `docs` are those tools, in that order), derived from their stored words:
 * no tokenising, stemming or glossing. Equal to analysing them afresh, term and word order
 * included: postings follow the documents, and the typo dictionary's words come in the order the
 * analysis meets them (each tool's own fields, its gloss, then its server's).
 */
export function subsetLexicalState(
  state: LexicalState,
  docs: readonly SearchDoc[],
  keep: readonly number[],
  opts: RankerOptions,
): LexicalState {
  const from = state.words;
  const wordFields = keep.map((i) => fieldsOf(from, i));
  const lastTool = new Int32Array(from.words.length).fill(-1);
  const counts = new Map<number, number>(); // word id -> tools that use it, in the analysis' order
  wordFields.forEach((fields, k) => {
    for (const f of ANALYSIS_ORDER)
      for (const id of fields[f]!) {
        if (lastTool[id] === k) continue;
        lastTool[id] = k;
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
  });
  const surfaceFrequency = new Map<string, number>();
  for (const [id, n] of counts) surfaceFrequency.set(from.words[id]!, n);
  const words = flattenWords(wordFields, from);
  return stateOf(docs, words, surfaceFrequency, opts);
}

/**
 * Each tool's name terms as numbers (in the sets' order, so sums add up in the same order), and a
 * weight per number that a query fills and clears: no map lookup per name word per candidate.
 * `toolsOf` lists, per number, the tools whose name holds it (`start[id]` to `start[id + 1]`), so
 * a query visits only the tools its words can cover, not every tool it touched.
 */
function numberNameTerms(nameTerms: readonly ReadonlySet<string>[]) {
  const ids = new Map<string, number>();
  const byTool = nameTerms.map((set) =>
    Int32Array.from(set, (t) => {
      let id = ids.get(t);
      if (id === undefined) ids.set(t, (id = ids.size));
      return id;
    }),
  );
  // Both directions flat, in typed arrays: at 50,000 tools an array per tool costs a cache miss each.
  const ownStart = new Int32Array(byTool.length + 1);
  byTool.forEach((own, i) => (ownStart[i + 1] = ownStart[i]! + own.length));
  const own = new Int32Array(ownStart[byTool.length]!);
  byTool.forEach((ids, i) => own.set(ids, ownStart[i]));
  const start = new Int32Array(ids.size + 1);
  for (const id of own) start[id + 1]!++;
  for (let id = 0; id < ids.size; id++) start[id + 1]! += start[id]!;
  const toolsOf = new Int32Array(own.length);
  const next = start.slice(0, ids.size);
  byTool.forEach((ids, i) => ids.forEach((id) => (toolsOf[next[id]!++] = i)));
  return { ids, ownStart, own, weights: new Float64Array(ids.size), start, toolsOf };
}

/**
 * Build the scorer: one BM25F index over tools, one over servers, a typo corrector, the
 * thesaurus. `state` must come from `analyseCatalog` over the same docs and options.
 */
export function buildLexicalScorer(
  docs: readonly SearchDoc[],
  opts: RankerOptions,
  state: LexicalState = analyseCatalog(docs, opts),
): LexicalScorer {
  const stem = pickStemmer(opts.stemmer);
  const terms = (text: string): string[] => analyze(text, stem, opts.stopWords);
  const bm = bm25fIndex(state.tools);
  const servers = serverEvidence(state.servers, numberServers(docs).serverOf);
  const corrector = buildTypoCorrector(state.surfaceFrequency);
  const expand = buildSynonymTable(terms);
  const names = numberNameTerms(state.nameTerms);
  const score = new Float64Array(docs.length);
  let touched: number[] = [];
  /** Which tools applyNameCoverage has visited for the current query (those equal to `visit`). */
  const visited = new Uint32Array(docs.length);
  let visit = 0;

  /** Typed words, then corrections of words the catalog does not know, then glosses, then synonyms. */
  function queryTerms(query: string): WeightedTerm[] {
    const words = [...new Set(surfaceWords(query, opts.stopWords))];
    const typed = new Map(words.map((w) => [stem(w), 1]));
    if (opts.typos) {
      for (const w of words) {
        if (bm.df(stem(w)) > 0) continue;
        for (const c of corrector.correct(w)) if (!typed.has(stem(c))) typed.set(stem(c), TYPO_WEIGHT);
      }
    }
    for (const w of surfaceWords(opts.translator.gloss(query), opts.stopWords)) {
      if (!typed.has(stem(w))) typed.set(stem(w), GLOSS_WEIGHT);
    }
    const list = [...typed].map(([term, weight]) => ({ term, weight }));
    return opts.synonyms ? expand(list, bm.idf) : list;
  }

  /**
   * Multiply by 1 + nameCoverage * (weighted share of the tool's name words the query has). Only
   * tools whose name holds a query word can change: for every other one the factor is exactly 1.
   */
  function applyNameCoverage(weighted: readonly WeightedTerm[]): void {
    if (opts.nameCoverage <= 0) return;
    const q = names.weights; // a later repeat of a term wins, as in a Map built from the list
    const asked: number[] = [];
    for (const t of weighted) {
      const id = names.ids.get(t.term);
      if (id !== undefined) {
        q[id] = t.weight;
        asked.push(id);
      }
    }
    if (++visit === 0xffffffff) {
      visited.fill(0);
      visit = 1;
    }
    for (const id of asked) {
      for (let p = names.start[id]!; p < names.start[id + 1]!; p++) {
        const i = names.toolsOf[p]!;
        if (visited[i] === visit) continue;
        visited[i] = visit;
        if (score[i] === 0) continue; // not touched by this query: 0 stays 0
        const from = names.ownStart[i]!;
        const to = names.ownStart[i + 1]!;
        let covered = 0;
        for (let k = from; k < to; k++) covered += q[names.own[k]!]!; // 0 for words not asked
        score[i]! *= 1 + (opts.nameCoverage * covered) / (to - from);
      }
    }
    for (const id of asked) q[id] = 0;
  }

  return {
    terms,
    state,
    score(query) {
      for (const i of touched) score[i] = 0;
      touched = [];
      const weighted = queryTerms(query);
      bm.score(weighted, score, touched);
      applyNameCoverage(weighted);
      servers.mix(weighted, { touched, score }, opts.serverWeight);
      return { touched, score };
    },
  };
}
