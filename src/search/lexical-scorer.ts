// Lexical scoring of one query: analysed words, typo fixes and synonyms, BM25F, server evidence.
import { analyze, surfaceWords } from './analyze.js';
import {
  bm25fIndex,
  buildPostings,
  type FieldTokens,
  type PostingsTable,
  type WeightedTerm,
} from './bm25f.js';
import { pickStemmer, TYPO_WEIGHT, type RankerOptions } from './options.js';
import type { Candidates } from './ranking.js';
import { buildServerPostings, serverEvidence } from './server-evidence.js';
import { buildSynonymTable } from './synonyms.js';
import { buildTypoCorrector } from './typo.js';
import type { SearchDoc } from './types.js';

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
}

function numberServers(docs: readonly SearchDoc[]): { serverOf: Int32Array; count: number } {
  const ids = new Map<string, number>();
  const serverOf = Int32Array.from(docs, (d) => {
    if (!ids.has(d.server)) ids.set(d.server, ids.size);
    return ids.get(d.server)!;
  });
  return { serverOf, count: ids.size };
}

/** Tokenise, stem and index the catalog: the state a scorer is built from. */
export function analyseCatalog(docs: readonly SearchDoc[], opts: RankerOptions): LexicalState {
  const stem = pickStemmer(opts.stemmer);
  const surfaceFrequency = new Map<string, number>();
  const lastDoc = new Map<string, number>();
  const countWords = (words: readonly string[], doc: number): void => {
    for (const w of words) {
      if (lastDoc.get(w) === doc) continue;
      lastDoc.set(w, doc);
      surfaceFrequency.set(w, (surfaceFrequency.get(w) ?? 0) + 1);
    }
  };
  // A server's id and description are the same for each of its tools: analysed once per server.
  const serverFields = new Map<string, { surface: string[][]; stemmed: string[][] }>();
  const fields: FieldTokens[] = docs.map((d, i) => {
    const own = [d.name, d.title, d.description, (d.paramNames ?? []).join(' ')].map((t) =>
      surfaceWords(t ?? '', opts.stopWords),
    );
    const serverKey = `${d.server}\n${d.serverDescription ?? ''}`;
    let server = serverFields.get(serverKey);
    if (!server) {
      const surface = [d.server, d.serverDescription].map((t) => surfaceWords(t ?? '', opts.stopWords));
      server = { surface, stemmed: surface.map((ws) => ws.map(stem)) };
      serverFields.set(serverKey, server);
    }
    for (const ws of own) countWords(ws, i);
    for (const ws of server.surface) countWords(ws, i);
    return [...own.map((ws) => ws.map(stem)), ...server.stemmed];
  });
  const { serverOf, count } = numberServers(docs);
  return {
    tools: buildPostings(fields, opts.bm25f),
    servers: buildServerPostings(fields, serverOf, count),
    surfaceFrequency,
    nameTerms: fields.map((f) => new Set([...f[0]!, ...f[1]!])),
  };
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
  const { nameTerms } = state;
  const score = new Float64Array(docs.length);
  let touched: number[] = [];

  /** Typed words, then corrections of words the catalog does not know, then synonyms. */
  function queryTerms(query: string): WeightedTerm[] {
    const words = [...new Set(surfaceWords(query, opts.stopWords))];
    const typed = new Map(words.map((w) => [stem(w), 1]));
    if (opts.typos) {
      for (const w of words) {
        if (bm.df(stem(w)) > 0) continue;
        for (const c of corrector.correct(w)) if (!typed.has(stem(c))) typed.set(stem(c), TYPO_WEIGHT);
      }
    }
    const list = [...typed].map(([term, weight]) => ({ term, weight }));
    return opts.synonyms ? expand(list, bm.idf) : list;
  }

  /** Multiply by 1 + nameCoverage * (weighted share of the tool's name words the query has). */
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
