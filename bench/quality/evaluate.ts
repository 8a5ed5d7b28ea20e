// Running one ranking system over one query set: metrics, latency and build time.
import type { SearchDoc } from '../../src/search/index.js';
import { meanScores, percentile, scoreQuery, type QueryScores } from './metrics.js';

/** A built ranker: ids best first. */
export interface Searcher {
  search(query: string | string[], limit: number): string[] | Promise<string[]>;
}

/** A ranking system under test. */
export interface System {
  name: string;
  build(docs: readonly SearchDoc[], catalog: string): Searcher | Promise<Searcher>;
}

/** A labelled query: one text, or one text per step. */
export interface LabelledQuery {
  id: string;
  query: string | string[];
  groups: string[][];
}

/** A query set over a named catalog. */
export interface QuerySet {
  name: string;
  catalog: string;
  docs: readonly SearchDoc[];
  queries: readonly LabelledQuery[];
  note: string;
}

/** One line of the result table. */
export interface Row extends QueryScores {
  set: string;
  system: string;
  n: number;
  p50Ms: number;
  p95Ms: number;
  buildMs: number;
  perQuery: { id: string; recall5: number; hit1: number; top: string[] }[];
}

/** Depth asked of every system: enough for Recall@10 and for five distinct servers. */
export const DEPTH = 50;
const WARMUP = 10;
const SMALL_SET = 200;
const TIMING_PASSES = 5;

/** Builds each (system, catalog) once and remembers the build time. */
export class BuildCache {
  private readonly built = new Map<string, { searcher: Searcher; ms: number }>();
  async get(system: System, set: QuerySet): Promise<{ searcher: Searcher; ms: number }> {
    const key = `${system.name}\n${set.catalog}`;
    let entry = this.built.get(key);
    if (!entry) {
      const t0 = performance.now();
      const searcher = await system.build(set.docs, set.catalog);
      entry = { searcher, ms: performance.now() - t0 };
      this.built.set(key, entry);
    }
    return entry;
  }
}

/** Score `system` on `set`. */
export async function evaluate(system: System, set: QuerySet, cache: BuildCache): Promise<Row> {
  const { searcher, ms } = await cache.get(system, set);
  for (const q of set.queries.slice(0, WARMUP)) await searcher.search(q.query, DEPTH);
  const times: number[] = [];
  const scores: QueryScores[] = [];
  const perQuery: Row['perQuery'] = [];
  for (const q of set.queries) {
    const t0 = performance.now();
    const ranking = await searcher.search(q.query, DEPTH);
    times.push(performance.now() - t0);
    const s = scoreQuery(ranking, q.groups);
    scores.push(s);
    perQuery.push({ id: q.id, recall5: s.recall5, hit1: s.hit1, top: ranking.slice(0, 5) });
  }
  // Small sets are timed over extra passes so p95 is not the 3rd-slowest of 48 samples.
  for (let pass = 1; pass < (set.queries.length <= SMALL_SET ? TIMING_PASSES : 1); pass++) {
    for (const q of set.queries) {
      const t0 = performance.now();
      await searcher.search(q.query, DEPTH);
      times.push(performance.now() - t0);
    }
  }
  return {
    set: set.name,
    system: system.name,
    n: set.queries.length,
    ...meanScores(scores),
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    buildMs: ms,
    perQuery,
  };
}
