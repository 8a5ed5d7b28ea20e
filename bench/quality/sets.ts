// The query sets of the quality bench, built from the shared data directory.
import type { SearchDoc } from '../../src/search/index.js';
import { loadJson, sampleEvery, toSearchDoc, truncate, type BenchQuery, type BenchTool } from './data.js';
import type { QuerySet } from './evaluate.js';
import { chineseToolQueries, devSets } from './multilingual.js';

/** MetaTool has 21,041 queries; every METATOOL_EVERY-th (from the first) gives about 2,100. */
export const METATOOL_EVERY = 10;

function byName(docs: readonly SearchDoc[]): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const d of docs) names.set(d.name, [...(names.get(d.name) ?? []), d.key]);
  return names;
}

/** All query sets, in table order. */
export function loadSets(dir: string): QuerySet[] {
  const small = loadJson<BenchTool[]>(dir, 'catalog-livemcpbench.json');
  const distractors = loadJson<BenchTool[]>(dir, 'catalog-smithery-toolgym-distractors.json');
  const metaCatalog = loadJson<BenchTool[]>(dir, 'catalog-metatool.json');
  const lmb = loadJson<BenchQuery[]>(dir, 'queries-livemcpbench-dev.json');
  const meta = loadJson<BenchQuery[]>(dir, 'queries-metatool.json');

  const smallDocs = small.map((t) => toSearchDoc(t));
  const smallDocsSd = small.map((t) => toSearchDoc(t, true));
  const bigDocs = [...small, ...distractors].map((t) => toSearchDoc(t));
  const keys = new Set(bigDocs.map((d) => d.key));
  if (keys.size !== bigDocs.length) throw new Error('big catalog ids are not unique');
  const task = lmb.map((q) => ({ id: q.id, query: truncate(q.query), groups: q.relevant_groups }));
  const steps = lmb.map((q) => ({
    id: q.id,
    query: (q.steps ?? [q.query]).map(truncate),
    groups: q.relevant_groups,
  }));
  const names = [...byName(bigDocs)].map(([name, ids]) => ({ id: name, query: name, groups: [ids] }));
  const metaQueries = sampleEvery(meta, METATOOL_EVERY).map((q) => ({
    id: q.id,
    query: truncate(q.query),
    groups: q.relevant_groups,
  }));
  return [
    {
      name: 'lmb-small task',
      catalog: 'small',
      docs: smallDocs,
      queries: task,
      note: 'LiveMCPBench dev, 527 tools, whole task text',
    },
    {
      name: 'lmb-small steps',
      catalog: 'small',
      docs: smallDocs,
      queries: steps,
      note: 'one query per annotated step, merged',
    },
    { name: 'lmb-big task', catalog: 'big', docs: bigDocs, queries: task, note: '527 + 6,448 distractors' },
    {
      name: 'lmb-big steps',
      catalog: 'big',
      docs: bigDocs,
      queries: steps,
      note: '527 + 6,448 distractors, steps merged',
    },
    {
      name: 'lmb-small+sdesc task',
      catalog: 'small+sdesc',
      docs: smallDocsSd,
      queries: task,
      note: 'small catalog with server descriptions',
    },
    {
      name: 'lmb-small+sdesc steps',
      catalog: 'small+sdesc',
      docs: smallDocsSd,
      queries: steps,
      note: 'small catalog with server descriptions',
    },
    {
      name: 'metatool',
      catalog: 'metatool',
      docs: metaCatalog.map((t) => toSearchDoc(t)),
      queries: metaQueries,
      note: `every ${METATOOL_EVERY}th of ${meta.length}`,
    },
    {
      name: 'lmb-zh-tools small steps',
      catalog: 'small',
      docs: smallDocs,
      queries: chineseToolQueries(steps, smallDocs),
      note: 'lmb steps, only the groups of tools described in Chinese',
    },
    {
      name: 'lmb-zh-tools big steps',
      catalog: 'big',
      docs: bigDocs,
      queries: chineseToolQueries(steps, bigDocs),
      note: 'lmb steps on the big catalog, only the groups of tools described in Chinese',
    },
    {
      name: 'lmb-zh-tools big task',
      catalog: 'big',
      docs: bigDocs,
      queries: chineseToolQueries(task, bigDocs),
      note: 'lmb whole tasks on the big catalog, only the groups of tools described in Chinese',
    },
    ...devSets('small', smallDocs),
    ...devSets('big', bigDocs),
    {
      name: 'exact-name big',
      catalog: 'big',
      docs: bigDocs,
      queries: names,
      note: 'each distinct tool name of the big catalog',
    },
  ];
}
