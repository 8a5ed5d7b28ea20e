// Hybrid cold start on the big catalog, its tool vectors stored: `npx tsx bench/core/hybrid-cold-start.ts
// [--runs N] [--data DIR] [--before DIST] [--build DIST]`. Each run is a fresh `node` that imports the built gateway,
// opens the store and answers one query, as `carte serve` answers its first search (issue 17 item 3).
// Arms, interleaved: lexical, hybrid with this build, and hybrid with `--before DIST` (the `dist/` of
// another build, e.g. the commit before a change) when given. Needs `npm run build` first (or
// `--build DIST`: measure that build instead of this checkout's dist/).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { VECTOR_CACHE } from '../quality/systems.js';
import { loadVectorCache } from '../quality/vector-cache.js';
import { toSearchDoc } from '../../src/gateway/find/catalog-view.js';
import { openStore, TEXT_RECIPE } from '../../src/gateway/index.js';
import { embeddableToolText, USE_LITE } from '../../src/search/index.js';
import { benchDataDir, loadBigCatalog } from './bench-data.js';
import { writeBigCatalog } from './big-catalog.js';
import { cleanEnv, flag, numberFlag, requireBuild, ROOT, tempDir } from './paths.js';
import { machine, machineLine, table } from './report.js';
import { median } from './stats.js';

const QUERY = 'search for objects in a museum collection';

/**
 * The child: times from its process start (performance.now's origin) to the imports, to the first
 * answer (store opened, gateway built, one search), and, for hybrid, to the first fused answer
 * (prepareSearch: vectors read, model loaded; then the same query). Prints one JSON line.
 */
const CHILD = `
const [dist, configPath, dataDir, strategy, query] = JSON.parse(process.argv[1]);
const gw = await import(dist + '/gateway/index.js');
const cfg = await import(dist + '/config/index.js');
const imported = performance.now();
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const loaded = cfg.loadConfigFile(configPath, { env: {}, dataDir });
const store = await gw.openStore(dataDir + '/carte.db');
const search = strategy === 'hybrid' ? { strategy, embedder: gw.lazyUseLiteEmbedder() } : { strategy };
const options = { servers: gw.serversFromConfig(loaded.config), store, logger: quiet, search };
// Builds from before the async store (a --before DIST) construct the gateway; later ones open it.
const gateway = gw.Gateway.open ? await gw.Gateway.open(options) : new gw.Gateway(options);
const first = await gateway.searchToolsWithMeta(gw.LOCAL_CALLER, query);
const answered = performance.now();
const out = { imported, answered, firstFallback: first.meta.fallback, firstReason: first.meta.steps[0]?.reason };
if (strategy === 'hybrid') {
  await gateway.prepareSearch(gw.LOCAL_CALLER);
  out.prepared = performance.now();
  const fused = await gateway.searchToolsWithMeta(gw.LOCAL_CALLER, query);
  Object.assign(out, { fused: performance.now(), fusedFallback: fused.meta.fallback });
}
await gateway.close();
await store.close();
process.stdout.write(JSON.stringify(out) + '\\n');
`;

interface ChildTimes {
  imported: number;
  answered: number;
  firstFallback: boolean;
  firstReason?: string;
  /** prepareSearch resolved: vectors read (and, after issue 17, the model warm). */
  prepared?: number;
  fused?: number;
  fusedFallback?: boolean;
}

/** Runs `node ...args` in the build's root (its node_modules, its "type": "module"); stdout and wall ms. */
function runIn(dist: string, args: string[]): Promise<{ stdout: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: join(dist, '..'),
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = performance.now() - start;
      if (code !== 0)
        return reject(new Error(`node ${args.at(-1)} in ${dist} exited ${code}: ${stderr.slice(-800)}`));
      resolve({ stdout, ms });
    });
  });
}

async function runChild(dist: string, catalog: { configPath: string; dataDir: string }, strategy: string) {
  const args = JSON.stringify([
    pathToFileURL(dist).href,
    catalog.configPath,
    catalog.dataDir,
    strategy,
    QUERY,
  ]);
  const { stdout } = await runIn(dist, ['--input-type=module', '-e', CHILD, args]);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildTimes;
}

/** `carte search QUERY` of the build (its ../bin/carte.js) with this config: wall ms, spawn to exit. */
async function runCli(dist: string, config: string, dataDir: string): Promise<number> {
  const bin = join(dist, '..', 'bin', 'carte.js');
  return (await runIn(dist, [bin, 'search', QUERY, '--json', '--config', config, '--data-dir', dataDir])).ms;
}

/**
 * Stores a vector for every embeddable tool: USE-Lite's from bench/out when bench:quality cached
 * them, else deterministic unit vectors (reading and fusing cost the same whatever the values).
 */
async function storeVectors(dataDir: string): Promise<string> {
  const cache = loadVectorCache(VECTOR_CACHE, USE_LITE.dimension);
  const store = await openStore(join(dataDir, 'carte.db'));
  let seed = 1;
  const random = (): Float32Array => {
    const v = Float32Array.from({ length: USE_LITE.dimension }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31 - 0.5;
    });
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  try {
    let cached = 0;
    const rows = (await store.tools.listForSearch()).flatMap((row) => {
      const text = embeddableToolText(toSearchDoc(row));
      if (text === undefined) return [];
      const hit = cache.get(text);
      if (hit) cached++;
      return [{ hash: row.contentHash, vector: hit ?? random() }];
    });
    await store.vectors.putMany(rows, `${USE_LITE.id}+${TEXT_RECIPE}`, USE_LITE.dimension);
    return `${new Set(rows.map((r) => r.hash)).size} vectors stored (${cached} USE-Lite from bench/out, the rest deterministic)`;
  } finally {
    await store.close();
  }
}

const p50 = (xs: number[]): string =>
  xs.length ? `${Math.round(median(xs))} (min ${Math.round(Math.min(...xs))})` : '-';

async function main(): Promise<void> {
  const runs = numberFlag('runs', 5);
  const build = flag('build') ?? join(ROOT, 'dist');
  const stale = flag('build') ? undefined : requireBuild();
  const dists: [string, string][] = [['hybrid, this build', build]];
  const before = flag('before');
  if (before) {
    if (!existsSync(join(before, 'gateway', 'index.js')))
      throw new Error(`--before ${before}: no gateway/index.js there`);
    dists.unshift(['hybrid, before', before]);
  }
  const tmp = tempDir();
  try {
    const catalog = await writeBigCatalog(tmp.dir, loadBigCatalog(benchDataDir()));
    const stored = await storeVectors(catalog.dataDir);
    const arms: [string, string, string][] = [
      ['lexical', build, 'lexical'],
      ...dists.map(([label, dist]) => [label, dist, 'hybrid'] as [string, string, string]),
    ];
    await runChild(build, catalog, 'lexical'); // warm-up: stores the index snapshot, fills the page cache
    const hybridConfig = join(tmp.dir, 'carte-hybrid.json');
    const config = JSON.parse(readFileSync(catalog.configPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(hybridConfig, JSON.stringify({ ...config, search: { strategy: 'hybrid' } }));
    const samples = new Map(arms.map(([label]) => [label, [] as ChildTimes[]]));
    const cli = new Map(arms.map(([label]) => [label, [] as number[]]));
    for (let i = 0; i < runs; i++) {
      for (const [label, dist, strategy] of arms) {
        samples.get(label)!.push(await runChild(dist, catalog, strategy));
        const file = strategy === 'hybrid' ? hybridConfig : catalog.configPath;
        cli.get(label)!.push(await runCli(dist, file, catalog.dataDir));
      }
    }
    const rows = arms.map(([label]) => {
      const s = samples.get(label)!;
      const reason = s[0]?.firstFallback ? `lexical: ${s[0].firstReason ?? ''}` : 'as configured';
      return [
        label,
        p50(s.map((t) => t.answered)),
        p50(s.map((t) => t.answered - t.imported)),
        reason,
        p50(s.flatMap((t) => (t.fused === undefined ? [] : [t.fused]))),
        p50(
          s.flatMap((t) => (t.fused === undefined || t.prepared === undefined ? [] : [t.fused - t.prepared])),
        ),
        s.some((t) => t.fusedFallback) ? 'fell back' : s[0]?.fused === undefined ? '-' : 'fused',
        p50(cli.get(label)!),
      ];
    });
    const out = [
      '# Hybrid cold start (big catalog)',
      '',
      machineLine(machine()),
      ...(stale ? ['', `warning: ${stale}`] : []),
      '',
      `${catalog.toolCount} tools; ${stored}; query "${QUERY}"; ${runs} runs per arm, interleaved. ms p50 from the child's start (node boot included).`,
      '',
      table(
        [
          'arm',
          'first answer',
          '... of it: open + search',
          'first answer was',
          'first fused answer',
          '... of it: the fused query',
          'fused?',
          '`carte search` (waits for the model)',
        ],
        rows,
      ),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    tmp.cleanup();
  }
}

await main();
