// Hybrid search: the lexical ranker fused with an embedder's cosine similarities (async).
import { queryEmbeddingText, toolEmbeddingText } from '../embed/embedding-text.js';
import { embedAll, similarities, type Embedder } from '../embed/embedder.js';
import { buildExactTable } from '../rank/exact.js';
import { buildFilters } from '../query/filter.js';
import { FUSION_DEFAULTS, fuseScores, type FusionOptions } from './fusion.js';
import { buildLexicalScorer, type LexicalState } from '../lexical/lexical-scorer.js';
import { mergeRankings, type RankedHit } from '../rank/merge.js';
import { RANKER_DEFAULTS, type RankerOptions } from '../lexical/options.js';
import {
  aboveMinimum,
  buildRankContext,
  listSelected,
  planSearch,
  rankCandidates,
  type Candidates,
} from '../rank/ranking.js';
import { addStepContext, normaliseCandidates } from '../rank/step-context.js';
import type { SearchDoc, SearchHit, SearchOptions } from '../query/types.js';

/** What buildHybridIndex needs besides the docs. */
export interface HybridOptions {
  embedder: Embedder;
  /** One vector per doc, in order (e.g. from a cache); embedded with `embedder` when absent. */
  vectors?: readonly (Float32Array | undefined)[];
  ranker?: Partial<RankerOptions>;
  fusion?: Partial<FusionOptions>;
  /** `analyseCatalog(docs, ranker options)`, when the caller has it (the lexical index's): skips the analysis. */
  lexicalState?: LexicalState;
}

/** An index whose search embeds the query, so it is async. */
export interface HybridIndex {
  readonly size: number;
  search(query: string | string[], options?: SearchOptions): Promise<SearchHit[]>;
}

/** The texts to embed for `docs`, in order (see toolEmbeddingText). */
export function toolTexts(docs: readonly SearchDoc[]): string[] {
  return docs.map(toolEmbeddingText);
}

/** Build a hybrid index. The sync lexical `buildSearchIndex` stays the default everywhere else. */
export async function buildHybridIndex(
  docs: readonly SearchDoc[],
  options: HybridOptions,
): Promise<HybridIndex> {
  const opts: RankerOptions = { ...RANKER_DEFAULTS, ...options.ranker };
  const fusion: FusionOptions = { ...FUSION_DEFAULTS, ...options.fusion };
  const scorer = buildLexicalScorer(docs, opts, options.lexicalState);
  const ctx = buildRankContext(docs, buildExactTable(docs));
  const allowedBy = buildFilters(docs, scorer.terms);
  const vectors = options.vectors ?? (await options.embedder.embed(toolTexts(docs)));
  if (vectors.length !== docs.length) {
    throw new Error(
      `buildHybridIndex: ${vectors.length} vectors for ${docs.length} tools; embed every tool, in order`,
    );
  }

  /** Every query's vector from one `embed` call (one model run or one request for all steps). */
  async function queryVectors(queries: readonly string[]): Promise<Map<string, Float32Array>> {
    const texts = [...new Set(queries.map(queryEmbeddingText))].filter((t): t is string => t !== undefined);
    if (texts.length === 0) return new Map();
    const got = await embedAll(options.embedder, texts, 'queries');
    return new Map(texts.map((t, i) => [t, got[i]!]));
  }

  function candidates(query: string, queryVector: ReadonlyMap<string, Float32Array>): Candidates {
    const lexical = scorer.score(query);
    const copy = { touched: [...lexical.touched], score: Float64Array.from(lexical.score) };
    const text = queryEmbeddingText(query);
    const qv = text === undefined ? undefined : queryVector.get(text);
    return qv ? fuseScores(copy, similarities(qv, vectors), fusion) : copy;
  }

  return {
    size: docs.length,
    async search(query, searchOptions = {}) {
      const plan = planSearch(query, searchOptions);
      if (!plan) return listSelected(docs, allowedBy(searchOptions), searchOptions);
      const rank = { allowed: allowedBy(searchOptions), depth: plan.depth, copyFactor: opts.copyFactor };
      const weight = plan.queries.length > 1 ? opts.stepContext : 0;
      const joined = weight > 0 ? plan.queries.join('\n') : undefined;
      const qvs = await queryVectors(joined === undefined ? plan.queries : [joined, ...plan.queries]);
      const context = joined === undefined ? undefined : normaliseCandidates(candidates(joined, qvs));
      const rankings: RankedHit[][] = [];
      for (const q of plan.queries) {
        const own = candidates(q, qvs);
        const scored = context ? addStepContext(own, context, weight) : own;
        rankings.push(rankCandidates(ctx, scored, { ...rank, query: q }));
      }
      return aboveMinimum(mergeRankings(rankings, plan.limit), searchOptions.minRelevance);
    },
  };
}
