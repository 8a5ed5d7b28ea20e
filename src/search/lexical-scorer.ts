// Lexical scoring of one query: BM25F per tool plus its server's match as a whole.
import { analyze, surfaceWords } from './analyze.js';
import type { Aspects } from './diversify.js';
import { buildBm25f, type FieldTokens, type WeightedTerm } from './bm25f.js';
import { pickStemmer, SERVER_BM25F, TYPO_WEIGHT, type RankerOptions } from './options.js';
import { buildSynonymTable } from './synonyms.js';
import { buildTypoCorrector } from './typo.js';
import type { SearchDoc } from './types.js';

/** Scores of the tools one query touched; `score` is 0 for every other tool. */
export interface LexicalResult {
  touched: number[];
  score: Float64Array;
  /**
   * How much of the query the best tool matched, 0..1: its raw BM25F score over the score of a
   * tool that matched every query term at saturation. Used to weigh one query against another.
   */
  coverage: number;
  /** The query terms tool `i` contains, each weighted by idf times query weight. */
  aspects(i: number): Aspects;
}

/** A reusable scorer over a fixed catalog. */
export interface LexicalScorer {
  /** Index terms of a text, as the index analyses it. */
  terms(text: string): string[];
  /** Score a query. The returned arrays are reused by the next call. */
  score(query: string): LexicalResult;
  /** Server number of each tool. */
  readonly serverOf: Int32Array;
}

function serverPseudoDocs(
  docFields: readonly FieldTokens[],
  serverOf: Int32Array,
  count: number,
): FieldTokens[] {
  const out = Array.from({ length: count }, () => [[], [], [], []] as string[][]);
  const seen = new Set<number>();
  docFields.forEach((f, i) => {
    const sd = out[serverOf[i]!]!;
    sd[0]!.push(...f[0]!, ...f[1]!);
    sd[1]!.push(...f[2]!);
    if (seen.has(serverOf[i]!)) return;
    seen.add(serverOf[i]!);
    sd[2]!.push(...f[4]!);
    sd[3]!.push(...f[5]!);
  });
  return out;
}

/** Build the scorer: one BM25F index over tools, one over servers. */
export function buildLexicalScorer(docs: readonly SearchDoc[], opts: RankerOptions): LexicalScorer {
  const stem = pickStemmer(opts.stemmer);
  const terms = (text: string): string[] => analyze(text, stem, opts.stopWords);
  const surfaceFrequency = new Map<string, number>();
  const docFields: FieldTokens[] = docs.map((d) => {
    const texts = [
      d.name,
      d.title,
      d.description,
      (d.paramNames ?? []).join(' '),
      d.server,
      d.serverDescription,
    ];
    const words = texts.map((t) => surfaceWords(t ?? '', opts.stopWords));
    for (const w of new Set(words.flat())) surfaceFrequency.set(w, (surfaceFrequency.get(w) ?? 0) + 1);
    return words.map((ws) => ws.map(stem));
  });
  const corrector = buildTypoCorrector(surfaceFrequency);
  const serverIds = new Map<string, number>();
  const serverOf = Int32Array.from(docs, (d) => {
    if (!serverIds.has(d.server)) serverIds.set(d.server, serverIds.size);
    return serverIds.get(d.server)!;
  });
  const bm = buildBm25f(docFields, opts.bm25f);
  const serverBm = buildBm25f(serverPseudoDocs(docFields, serverOf, serverIds.size), SERVER_BM25F);
  const score = new Float64Array(docs.length);
  const docTerms = docFields.map((f) => new Set(f.flat()));
  let queryWeights = new Map<string, number>();
  const aspects = (i: number): Aspects => {
    const out = new Map<string, number>();
    for (const [t, w] of queryWeights) if (docTerms[i]!.has(t)) out.set(t, w);
    return out;
  };
  const nameTerms = docFields.map((f) => new Set([...f[0]!, ...f[1]!]));
  const serverScore = new Float64Array(serverIds.size);
  let touched: number[] = [];
  const expand = buildSynonymTable(terms);
  const maxField = Math.max(...opts.bm25f.fields.map((f) => f.weight));

  /** Mix each touched tool's max-normalised score with its server's (weight opts.serverWeight). */
  function addServerEvidence(weighted: readonly WeightedTerm[], maxTool: number): void {
    if (opts.serverWeight <= 0 || maxTool === 0) return;
    serverScore.fill(0);
    serverBm.score(weighted, serverScore, []);
    let maxServer = 0;
    for (const v of serverScore) maxServer = Math.max(maxServer, v);
    if (maxServer === 0) return;
    for (const i of touched) {
      score[i] = score[i]! / maxTool + (opts.serverWeight * serverScore[serverOf[i]!]!) / maxServer;
    }
  }

  /** Corrections of words the catalog does not know, at TYPO_WEIGHT. */
  function correctTypos(words: readonly string[]): WeightedTerm[] {
    const out = new Map<string, number>();
    for (const w of words) {
      if (bm.df(stem(w)) > 0) continue;
      for (const c of corrector.correct(w)) out.set(stem(c), TYPO_WEIGHT);
    }
    return [...out].map(([term, weight]) => ({ term, weight }));
  }

  /** Reward tools whose name the query covers (synonyms count at their weight). */
  function applyNameCoverage(weighted: readonly WeightedTerm[]): void {
    if (opts.nameCoverage <= 0) return;
    const q = new Map(weighted.map((t) => [t.term, t.weight]));
    for (const i of touched) {
      const names = nameTerms[i]!;
      if (names.size === 0) continue;
      let covered = 0;
      for (const t of names) covered += q.get(t) ?? 0;
      score[i]! *= 1 + (opts.nameCoverage * covered) / names.size;
    }
  }

  return {
    terms,
    serverOf,
    score(query) {
      for (const i of touched) score[i] = 0;
      touched = [];
      const words = [...new Set(surfaceWords(query, opts.stopWords))];
      const typed: WeightedTerm[] = [...new Set(words.map(stem))].map((term) => ({ term, weight: 1 }));
      const fixes = opts.typos ? correctTypos(words) : [];
      const weighted = opts.synonyms ? expand([...typed, ...fixes]) : [...typed, ...fixes];
      bm.score(weighted, score, touched);
      queryWeights = new Map(weighted.map((t) => [t.term, bm.idf(t.term) * t.weight]));
      applyNameCoverage(weighted);
      let maxTool = 0;
      for (const i of touched) maxTool = Math.max(maxTool, score[i]!);
      // A tool matching every term with a saturated name field scores about this much.
      const k1 = opts.bm25f.k1;
      const sat = (maxField * (k1 + 1)) / (k1 + maxField);
      const ideal = typed.reduce((s, t) => s + bm.idf(t.term) * t.weight * sat, 0);
      const coverage = ideal > 0 ? Math.min(1, maxTool / ideal) : 0;
      addServerEvidence(weighted, maxTool);
      return { touched, score, coverage, aspects };
    },
  };
}
