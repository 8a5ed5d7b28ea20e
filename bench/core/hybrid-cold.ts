// `carte search` cold start with `search.strategy: hybrid` on the big catalog, its tool vectors
// already stored: the USE-Lite vectors bench:quality cached in bench/out are written into the
// store (keyed as the gateway keys them), so nothing is embedded but the query.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VECTOR_CACHE as VECTORS } from '../quality/systems.js';
import { loadVectorCache } from '../quality/vector-cache.js';
import { toSearchDoc } from '../../src/gateway/catalog-view.js';
import { TEXT_RECIPE } from '../../src/gateway/hybrid-search.js';
import { openStore } from '../../src/gateway/index.js';
import { embeddableToolText, USE_LITE } from '../../src/search/index.js';
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
function storeVectors(dataDir: string): number {
  const cache = loadVectorCache(VECTORS, USE_LITE.dimension);
  const store = openStore(join(dataDir, 'carte.db'));
  try {
    const written: { hash: string; vector: Float32Array }[] = [];
    let missing = 0;
    for (const row of store.tools.listForSearch()) {
      const text = embeddableToolText(toSearchDoc(row));
      const vector = text === undefined ? undefined : cache.get(text);
      if (vector) written.push({ hash: row.contentHash, vector });
      else if (text !== undefined) missing++;
    }
    store.vectors.putMany(written, `${USE_LITE.id}+${TEXT_RECIPE}`, USE_LITE.dimension);
    return missing;
  } finally {
    store.close();
  }
}

export async function benchHybridCold(
  target: { configPath: string; dataDir: string; cwd: string },
  query: string,
  runs: number,
): Promise<HybridCold> {
  if (!existsSync(VECTORS))
    return { skipped: `no ${VECTORS} (run npm run bench:quality first)`, ms: [], lexicalMs: [] };
  const missing = storeVectors(target.dataDir);
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
