// Server-level evidence: how well a server's tools, taken together, match the query.
import {
  bm25fIndex,
  buildPostingsFromIds,
  type Bm25fParams,
  type FieldIds,
  type PostingsTable,
  type WeightedTerm,
} from './bm25f.js';

/**
 * BM25F over one pseudo-document per server: all its tools' names and titles, all their
 * descriptions, the server id, the server description. Length normalisation (b) keeps a server
 * with hundreds of tools from matching everything. Weights as in DEFAULT_BM25F.
 */
export const SERVER_BM25F: Bm25fParams = {
  k1: 1.2,
  fields: [
    { weight: 2, b: 0.75 }, // tool names and titles
    { weight: 1, b: 0.75 }, // tool descriptions
    { weight: 3, b: 0.3 }, // server id words
    { weight: 1, b: 0.75 }, // server description
  ],
};

/**
 * Tool fields in DEFAULT_BM25F order: name, title, description, params, server id, server
 * description, gloss, use cases. A tool's gloss and use cases count as its description.
 */
function serverPseudoDocs(tools: readonly FieldIds[], serverOf: Int32Array, count: number): number[][][] {
  const out = Array.from({ length: count }, () => [[], [], [], []] as number[][]);
  const seen = new Set<number>();
  const append = (into: number[], from: readonly number[]): void => {
    for (const x of from) into.push(x);
  };
  tools.forEach((f, i) => {
    const s = serverOf[i]!;
    const doc = out[s]!;
    append(doc[0]!, f[0]!);
    append(doc[0]!, f[1]!);
    append(doc[1]!, f[2]!);
    append(doc[1]!, f[6] ?? []);
    append(doc[1]!, f[7] ?? []);
    if (seen.has(s)) return;
    seen.add(s);
    append(doc[2]!, f[4]!);
    append(doc[3]!, f[5]!);
  });
  return out;
}

/** Mixes a server score into tool scores. */
export interface ServerEvidence {
  /**
   * Replace each touched tool's score with score / best tool score + weight * its server's score /
   * best server score: both sides max-normalised so `weight` (>= 0) is scale-free.
   */
  mix(
    terms: readonly WeightedTerm[],
    tools: { touched: readonly number[]; score: Float64Array },
    weight: number,
  ): void;
}

/**
 * The server pseudo-documents' postings from tool fields as term ids (`terms[id]` is the term);
 * `serverOf[i]` is tool i's server number, `count` the number of servers.
 */
export function buildServerPostings(
  tools: readonly FieldIds[],
  terms: readonly string[],
  serverOf: Int32Array,
  count: number,
): PostingsTable {
  return buildPostingsFromIds(serverPseudoDocs(tools, serverOf, count), terms, SERVER_BM25F);
}

/** Server evidence over the server postings (`table.size` servers); `serverOf[i]` is tool i's server number. */
export function serverEvidence(table: PostingsTable, serverOf: Int32Array): ServerEvidence {
  const index = bm25fIndex(table);
  const count = table.size;
  const serverScore = new Float64Array(count);
  return {
    mix(terms, { touched, score }, weight) {
      let maxTool = 0;
      for (const i of touched) maxTool = Math.max(maxTool, score[i]!);
      if (weight <= 0 || maxTool === 0) return;
      serverScore.fill(0);
      index.score(terms, serverScore, []);
      let maxServer = 0;
      for (const v of serverScore) maxServer = Math.max(maxServer, v);
      if (maxServer === 0) return;
      for (const i of touched)
        score[i] = score[i]! / maxTool + (weight * serverScore[serverOf[i]!]!) / maxServer;
    },
  };
}
