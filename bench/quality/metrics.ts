// Retrieval metrics as defined in ../shared/bench/README.md, scored against relevant_groups.
import { serverOf } from './data.js';

/** Per-query scores, each 0..1. */
export interface QueryScores {
  hit1: number;
  recall5: number;
  recall10: number;
  ndcg10: number;
  serverRecall5: number;
  serverNdcg5: number;
}

/** Fraction of groups with a member in the first k of `ranking`. */
export function recallAt(
  ranking: readonly string[],
  groups: readonly (readonly string[])[],
  k: number,
): number {
  if (groups.length === 0) return 0;
  const top = new Set(ranking.slice(0, k));
  return groups.filter((g) => g.some((m) => top.has(m))).length / groups.length;
}

/** Binary-gain nDCG@k where a rank gains only if it covers a group no earlier rank covered. */
export function ndcgAt(
  ranking: readonly string[],
  groups: readonly (readonly string[])[],
  k: number,
): number {
  if (groups.length === 0) return 0;
  const covered = new Set<number>();
  let dcg = 0;
  ranking.slice(0, k).forEach((item, rank) => {
    let gain = 0;
    groups.forEach((g, gi) => {
      if (!covered.has(gi) && g.includes(item)) {
        covered.add(gi);
        gain = 1;
      }
    });
    dcg += gain / Math.log2(rank + 2);
  });
  let ideal = 0;
  for (let r = 0; r < Math.min(groups.length, k); r++) ideal += 1 / Math.log2(r + 2);
  return dcg / ideal;
}

/**
 * The server-level gold set, as ../shared/bench/README.md defines it: every server of every group
 * member (alternatives included, as in LiveMCPBench's relevant_servers), one single-server group each.
 */
export function serverGroups(groups: readonly (readonly string[])[]): string[][] {
  return [...new Set(groups.flat().map(serverOf))].sort().map((s) => [s]);
}

/** Collapse a tool ranking to distinct servers in order of first appearance. */
export function serverRanking(ranking: readonly string[]): string[] {
  return [...new Set(ranking.map(serverOf))];
}

/** All metrics of one query. */
export function scoreQuery(ranking: readonly string[], groups: readonly (readonly string[])[]): QueryScores {
  const servers = serverRanking(ranking);
  const sGroups = serverGroups(groups);
  return {
    hit1: ranking.length > 0 && groups.some((g) => g.includes(ranking[0]!)) ? 1 : 0,
    recall5: recallAt(ranking, groups, 5),
    recall10: recallAt(ranking, groups, 10),
    ndcg10: ndcgAt(ranking, groups, 10),
    serverRecall5: recallAt(servers, sGroups, 5),
    serverNdcg5: ndcgAt(servers, sGroups, 5),
  };
}

/** Mean of each metric over queries. */
export function meanScores(all: readonly QueryScores[]): QueryScores {
  const keys = ['hit1', 'recall5', 'recall10', 'ndcg10', 'serverRecall5', 'serverNdcg5'] as const;
  const out = { hit1: 0, recall5: 0, recall10: 0, ndcg10: 0, serverRecall5: 0, serverNdcg5: 0 };
  for (const k of keys) out[k] = all.length === 0 ? 0 : all.reduce((s, q) => s + q[k], 0) / all.length;
  return out;
}

/** The p-th percentile (0..100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
