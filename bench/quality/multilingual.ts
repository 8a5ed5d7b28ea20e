// The translator's query sets (docs/search.md, "Other languages"): the multilingual dev set of this
// directory, and the LiveMCPBench queries narrowed to the tools described only in Chinese.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchDoc } from '../../src/search/index.js';
import type { LabelledQuery, QuerySet } from './evaluate.js';

interface DevQuery {
  id: string;
  lang: string;
  query: string;
  relevant_groups: string[][];
}

/** The dev set's languages, in table order. */
export const DEV_LANGUAGES = ['zh', 'ja', 'es', 'de', 'fr', 'pt'] as const;

const HAN = /\p{Script=Han}/u;

/** The dev queries of `bench/quality/multilingual-dev.json` (written before any tuning). */
export function loadDevQueries(): DevQuery[] {
  const file = join(import.meta.dirname, 'multilingual-dev.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { queries: DevQuery[] }).queries;
}

/** One set per dev language over `docs`. */
export function devSets(catalog: string, docs: readonly SearchDoc[]): QuerySet[] {
  const all = loadDevQueries();
  return DEV_LANGUAGES.map((lang) => ({
    name: `ml-${lang} ${catalog}`,
    catalog,
    docs,
    queries: all
      .filter((q) => q.lang === lang)
      .map((q) => ({ id: q.id, query: q.query, groups: q.relevant_groups })),
    note: `multilingual dev set, ${lang} requests`,
  }));
}

/**
 * The queries narrowed to their groups that hold a tool whose description is in Chinese (has a Han
 * character); queries left without such a group are dropped. Measures the Chinese-described tools.
 */
export function chineseToolQueries(
  queries: readonly LabelledQuery[],
  docs: readonly SearchDoc[],
): LabelledQuery[] {
  const chinese = new Set(docs.filter((d) => HAN.test(d.description ?? '')).map((d) => d.key));
  return queries
    .map((q) => ({ ...q, groups: q.groups.filter((g) => g.some((k) => chinese.has(k))) }))
    .filter((q) => q.groups.length > 0);
}
