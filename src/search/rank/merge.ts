// Merging the rankings of several queries (one per task step) into one ranking.

/** One hit of one query: relevance in 0..1, the query's best at 1. */
export interface RankedHit {
  key: string;
  relevance: number;
}

interface Entry {
  key: string;
  best: number;
  sum: number;
  rank: number;
  query: number;
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Max-normalised merge: a tool's merged relevance is its best relevance over the queries.
 * Every query's own best hit has relevance 1, so the steps' top hits come first, one per step
 * (a round-robin first round, in step order); after that, confidence decides. Ties go to the
 * better rank, then to the tool more queries found (sum), then to the earlier query.
 */
export function mergeRankings(rankings: readonly (readonly RankedHit[])[], limit: number): RankedHit[] {
  const entries = new Map<string, Entry>();
  rankings.forEach((ranking, query) => {
    ranking.forEach((hit, rank) => {
      const e = entries.get(hit.key);
      if (!e) {
        entries.set(hit.key, { key: hit.key, best: hit.relevance, sum: hit.relevance, rank, query });
        return;
      }
      e.sum += hit.relevance;
      if (hit.relevance > e.best || (hit.relevance === e.best && rank < e.rank)) {
        e.best = hit.relevance;
        e.rank = rank;
        e.query = query;
      }
    });
  });
  return [...entries.values()]
    .sort(
      (a, b) =>
        b.best - a.best || a.rank - b.rank || b.sum - a.sum || a.query - b.query || compareKeys(a.key, b.key),
    )
    .slice(0, limit)
    .map((e) => ({ key: e.key, relevance: e.best }));
}
