// `carte search` cold start with `search.strategy: hybrid` on the big catalog, its tool vectors
// already stored: the USE-Lite vectors bench:quality cached in bench/out are written into the
// store (keyed as the gateway keys them), so nothing is embedded but the query.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VECTOR_CACHE as VECTORS } from '../quality/systems.js';
import { loadVectorCache } from '../quality/vector-cache.js';
import { toSearchDoc } from '../../src/gateway/find/catalog-view.js';
import { TEXT_RECIPE } from '../../src/gateway/find/hybrid-search.js';
import { openStore } from '../../src/gateway/index.js';
import { createUseLiteEmbedder, embeddableToolText, USE_LITE } from '../../src/search/index.js';
import type { BenchQuery } from './bench-data.js';
import { runOk } from './proc.js';
import { median } from './stats.js';

export interface HybridCold {
  /** Why it was not measured, when it was not. */
  skipped?: string;
  ms: number[];
  /** The same CLI with the lexical default, alternating with the hybrid runs. */
  lexicalMs: number[];
}

/** Stores the cached vectors for the catalog in `dataDir`; returns how many tools have none. */
async function storeVectors(dataDir: string): Promise<number> {
  const cache = loadVectorCache(VECTORS, USE_LITE.dimension);
  const store = await openStore(join(dataDir, 'carte.db'));
  try {
    const written: { hash: string; vector: Float32Array }[] = [];
    let missing = 0;
    for (const row of await store.tools.listForSearch()) {
      const text = embeddableToolText(toSearchDoc(row));
      const vector = text === undefined ? undefined : cache.get(text);
      if (vector) written.push({ hash: row.contentHash, vector });
      else if (text !== undefined) missing++;
    }
    await store.vectors.putMany(written, `${USE_LITE.id}+${TEXT_RECIPE}`, USE_LITE.dimension);
    return missing;
  } finally {
    await store.close();
  }
}

export async function benchHybridCold(
  target: { configPath: string; dataDir: string; cwd: string },
  query: string,
  runs: number,
): Promise<HybridCold> {
  if (!existsSync(VECTORS))
    return { skipped: `no ${VECTORS} (run npm run bench:quality first)`, ms: [], lexicalMs: [] };
  const missing = await storeVectors(target.dataDir);
  if (missing > 0) return { skipped: `${missing} tools have no cached vector`, ms: [], lexicalMs: [] };
  const hybridConfig = join(target.cwd, 'carte-hybrid.json');
  const config = JSON.parse(readFileSync(target.configPath, 'utf8')) as Record<string, unknown>;
  writeFileSync(hybridConfig, JSON.stringify({ ...config, search: { strategy: 'hybrid' } }));
  const args = (file: string) => ['search', query, '--json', '--config', file, '--data-dir', target.dataDir];
  await runOk(args(hybridConfig), { cwd: target.cwd }); // warm-up: stores the index snapshot
  const ms: number[] = [];
  const lexicalMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    ms.push((await runOk(args(hybridConfig), { cwd: target.cwd })).ms);
    lexicalMs.push((await runOk(args(target.configPath), { cwd: target.cwd })).ms);
  }
  return { ms, lexicalMs };
}

export function hybridColdLine(r: HybridCold): string {
  if (r.skipped) return `Hybrid cold start not measured: ${r.skipped}.`;
  return `\`carte search\` cold with \`search.strategy: hybrid\` (big catalog, tool vectors stored, index snapshot stored; loads USE-Lite and embeds the query): ${Math.round(median(r.ms))} ms p50 (min ${Math.round(Math.min(...r.ms))}), against ${Math.round(median(r.lexicalMs))} ms lexical in the same runs.`;
}

/** Embedding a multi-step query's texts (the joined request and each step) one call each vs one call. */
export interface EmbedBatching {
  calls: number;
  textsPerCall: number;
  oneByOneMs: number[];
  batchedMs: number[];
}

/**
 * In process, with USE-Lite loaded: for each multi-step query, embed its texts one by one and then
 * all at once (alternating, no cache: each text gets a unique suffix per arm).
 */
export async function benchEmbedBatching(queries: readonly BenchQuery[], limit = 20): Promise<EmbedBatching> {
  const embedder = await createUseLiteEmbedder();
  const sets = queries
    .filter((q): q is BenchQuery & { query: string[] } => Array.isArray(q.query) && q.query.length > 1)
    .slice(0, limit)
    .map((q) => [q.query.join(' '), ...q.query]);
  await embedder.embed(sets[0] ?? ['warm up']); // first run compiles the model's kernels
  const oneByOneMs: number[] = [];
  const batchedMs: number[] = [];
  for (const [i, texts] of sets.entries()) {
    let t = performance.now();
    for (const text of texts) await embedder.embed([`${text} ${i}a`]);
    oneByOneMs.push(performance.now() - t);
    t = performance.now();
    await embedder.embed(texts.map((text) => `${text} ${i}b`));
    batchedMs.push(performance.now() - t);
  }
  const textsPerCall = sets.reduce((n, s) => n + s.length, 0) / Math.max(1, sets.length);
  return { calls: sets.length, textsPerCall, oneByOneMs, batchedMs };
}

export function embedBatchingLine(r: EmbedBatching): string {
  return `Query embedding of a multi-step search (USE-Lite, in process, ${r.calls} step lists of ${r.textsPerCall.toFixed(1)} texts on average, the joined request included): one call per text ${Math.round(median(r.oneByOneMs))} ms p50, one call for all ${Math.round(median(r.batchedMs))} ms p50 (the hybrid index now makes one call).`;
}
