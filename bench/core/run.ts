// Core speed bench: `npx tsx bench/core/run.ts [--quick] [--runs N] [--data DIR]` (npm run bench:core).
// (a) sync of the demo config, cold and warm, vs spawning the servers directly; (b) search latency
// in process and `carte search` cold start, on the demo and the big (~7k tools) catalog;
// (c) `carte serve` start-up to the first answers. Prints markdown; writes bench/out/core.json.
import { serversFromConfig } from '../../src/gateway/index.js';
import { demoConfig } from '../../src/config/index.js';
import { benchDataDir, loadBigCatalog, loadQueries } from './bench-data.js';
import { writeBigCatalog } from './big-catalog.js';
import { hasFlag, numberFlag, requireBuild, tempDir } from './paths.js';
import { machine, machineLine, progress, table, writeJson } from './report.js';
import { benchEmbedBatching, benchHybridCold, embedBatchingLine, hybridColdLine } from './hybrid-cold.js';
import {
  benchSearch,
  benchSearchAtScale,
  scaleTable,
  searchTable,
  type CatalogTarget,
  type ScaleBench,
} from './search-bench.js';
import { SYNTHETIC_TOOLS, syntheticCatalog } from './synthetic-catalog.js';
import { benchServe, benchServeFlags, serveTable, SETTLE_MS, type ServeBench } from './serve-bench.js';
import { benchGloss, GLOSS_QUERIES, glossFirstStartLine, glossTable } from './gloss-bench.js';
import { median, ms } from './stats.js';
import { benchSync, syncTable } from './sync-bench.js';

const QUERY_COUNT = 200;
/** Targets from the issues, in ms. */
const TARGETS = {
  searchP95At7k: 3,
  searchP95At50k: 20,
  coldStartWithCatalog: 500,
  coldStartBigCatalog: 400,
  withinNodeStart: 150,
  withinNodeStartSearch: 200,
  firstForeignQuery: 300,
  serveRssMiB: 150,
};

/** The synthetic catalog, written into its own temp store, then searched. */
async function benchScale(
  queries: ReturnType<typeof loadQueries>,
  passes: number,
): Promise<{ bench: ScaleBench; writeMs: number }> {
  const tmp = tempDir();
  try {
    const catalog = await writeBigCatalog(tmp.dir, syntheticCatalog(benchDataDir()));
    const bench = await benchSearchAtScale(
      {
        label: `synthetic (${catalog.servers.length} servers)`,
        dataDir: catalog.dataDir,
        servers: catalog.servers,
      },
      queries,
      passes,
    );
    return { bench, writeMs: catalog.writeMs };
  } finally {
    tmp.cleanup();
  }
}

async function main(): Promise<void> {
  const quick = hasFlag('quick');
  const runs = numberFlag('runs', quick ? 2 : 5);
  const stale = requireBuild();
  const dataDir = benchDataDir();
  const m = machine();
  const out: string[] = [`# Carte core bench`, '', machineLine(m)];
  if (stale) out.push('', `warning: ${stale}`);

  const sync = await benchSync(runs);
  out.push('', '## (a) Sync of the demo config', '', syncTable(sync));

  progress('search: writing the big catalog into a temp store');
  const big = tempDir();
  try {
    const catalog = await writeBigCatalog(big.dir, loadBigCatalog(dataDir));
    const queries = loadQueries(dataDir, QUERY_COUNT);
    const demo: CatalogTarget = {
      label: 'demo',
      dataDir: sync.dataDir,
      servers: serversFromConfig(demoConfig(sync.dataDir)),
      cliArgs: ['--data-dir', sync.dataDir],
      cwd: sync.cwd,
    };
    const large: CatalogTarget = {
      label: `big (${catalog.servers.length} servers)`,
      dataDir: catalog.dataDir,
      servers: catalog.servers,
      cliArgs: ['--config', catalog.configPath, '--data-dir', catalog.dataDir],
      cwd: big.dir,
    };
    const searches = [];
    for (const target of [demo, large]) {
      progress(`search: ${target.label}`);
      searches.push(await benchSearch(target, queries, { passes: quick ? 2 : 5, cliRuns: runs }));
    }
    const nodeBare = median(sync.wallMs.nodeBare);
    out.push('', '## (b) Search', '', searchTable(searches, nodeBare));
    progress(`search: the ${SYNTHETIC_TOOLS}-tool synthetic catalog (writing it takes a while)`);
    const scale = await benchScale(queries, quick ? 2 : 5);
    out.push(
      '',
      `Warm search latency at ${SYNTHETIC_TOOLS} tools: the big catalog and MetaTool's, then re-mixed copies of every server (\`bench/core/synthetic-catalog.ts\`), written through \`applyDiscovery\` in ${ms(scale.writeMs)} ms; the same queries and passes:`,
      '',
      scaleTable(scale.bench),
    );
    progress('search: hybrid cold start');
    const hybridCold = await benchHybridCold(
      { configPath: catalog.configPath, dataDir: catalog.dataDir, cwd: big.dir },
      'search for objects in a museum collection',
      runs,
    );
    out.push('', hybridColdLine(hybridCold));
    progress('search: query embedding, one call per text vs one call');
    const embedBatching = await benchEmbedBatching(queries);
    out.push('', embedBatchingLine(embedBatching));
    out.push(
      '',
      `Writing the big catalog through \`applyDiscovery\` (one transaction per server, ${catalog.toolCount} tools): ${ms(catalog.writeMs)} ms.`,
    );

    progress('serve: start-up');
    const serves = [
      await benchServe('demo', demo.cliArgs, demo.cwd, runs),
      ...(await benchServeFlags(large.label, large.cliArgs, large.cwd, runs)),
    ];
    out.push('', '## (c) `carte serve` start-up with a synced catalog', '', serveTable(serves));

    progress('serve: first non-English queries');
    const gloss = await benchGloss(
      { label: 'big', args: large.cliArgs, cwd: large.cwd, dataDir: large.dataDir },
      runs,
    );
    out.push(
      '',
      '## (d) `carte serve`, big catalog: the first non-English queries',
      '',
      glossTable(gloss.benches),
    );
    out.push('', glossFirstStartLine(gloss.firstStart));

    const bigSearch = searches[1]!;
    const cli = bigSearch.cliColdMs;
    const serve = serves[1]!.runs.map((r) => r.toolsListMs);
    const glossAfter = gloss.benches[1]!;
    const restOf = (b: ServeBench) =>
      b.runs.flatMap((r) => (r.settledMiB === undefined ? [] : [r.settledMiB]));
    const bigRest = restOf(serves[1]!);
    const bareRest = restOf(serves[2]!);
    const glossRss = glossAfter.runs.map((r) => r.rssMiB[GLOSS_QUERIES.length]!);
    const verdict = (x: number, target: number) => (x < target ? 'met' : '**missed**');
    const p50min = (xs: number[], cpu: number[] = []) =>
      `${ms(median(xs))} ms (min ${ms(Math.min(...xs))}${cpu.length ? `, CPU ${ms(median(cpu))}` : ''})`;
    out.push(
      '',
      '## Targets',
      '',
      table(
        ['target', 'measured', 'verdict'],
        [
          [
            `search p95 < ${TARGETS.searchP95At7k} ms at ~7k tools (lexical), all samples`,
            `${ms(bigSearch.latency.p95)} ms`,
            verdict(bigSearch.latency.p95, TARGETS.searchP95At7k),
          ],
          [
            '... per query best of the passes',
            `${ms(bigSearch.bestOf.p95)} ms`,
            verdict(bigSearch.bestOf.p95, TARGETS.searchP95At7k),
          ],
          [
            `search p95 < ${TARGETS.searchP95At50k} ms at ${SYNTHETIC_TOOLS} tools (synthetic, lexical), all samples`,
            `${ms(scale.bench.latency.p95)} ms (best-of ${ms(scale.bench.bestOf.p95)})`,
            verdict(scale.bench.latency.p95, TARGETS.searchP95At50k),
          ],
          [
            `\`carte search\` < ${TARGETS.coldStartBigCatalog} ms, big catalog, cold, its snapshot stored`,
            `${p50min(cli, bigSearch.cliColdCpuMs)}; \`node -e 0\` ${ms(nodeBare)} ms`,
            verdict(median(cli), TARGETS.coldStartBigCatalog),
          ],
          [
            `\`carte servers\` within ${TARGETS.withinNodeStart} ms of \`node -e 0\` (demo)`,
            `${ms(median(searches[0]!.cliServersMs) - nodeBare)} ms over (${p50min(searches[0]!.cliServersMs)})`,
            verdict(median(searches[0]!.cliServersMs) - nodeBare, TARGETS.withinNodeStart),
          ],
          [
            `\`carte search\` within ${TARGETS.withinNodeStartSearch} ms of \`node -e 0\` (demo)`,
            `${ms(median(searches[0]!.cliColdMs) - nodeBare)} ms over (${p50min(searches[0]!.cliColdMs, searches[0]!.cliColdCpuMs)})`,
            verdict(median(searches[0]!.cliColdMs) - nodeBare, TARGETS.withinNodeStartSearch),
          ],
          [
            `\`carte search\` < ${TARGETS.coldStartWithCatalog} ms, big catalog, first run after a catalog change (no index snapshot)`,
            p50min(bigSearch.cliNoSnapshotMs),
            verdict(median(bigSearch.cliNoSnapshotMs), TARGETS.coldStartWithCatalog),
          ],
          [
            `\`carte serve\` to the first \`tools/list\` answer < ${TARGETS.coldStartWithCatalog} ms, big catalog`,
            p50min(serve),
            verdict(median(serve), TARGETS.coldStartWithCatalog),
          ],
          [
            `\`carte serve\` RSS < ${TARGETS.serveRssMiB} MiB, big catalog, ${SETTLE_MS / 1000} s after a budgeted first search (as launched)`,
            `${median(bigRest).toFixed(0)} MiB (max ${Math.max(...bigRest).toFixed(0)}); node's defaults ${median(bareRest).toFixed(0)}`,
            verdict(median(bigRest), TARGETS.serveRssMiB),
          ],
          [
            `first non-English query < ${TARGETS.firstForeignQuery} ms (the Chinese one, big catalog, gloss files)`,
            p50min(glossAfter.runs.map((r) => r.queryMs[0]!)),
            verdict(median(glossAfter.runs.map((r) => r.queryMs[0]!)), TARGETS.firstForeignQuery),
          ],
          [
            '... the Japanese one, after the Chinese one',
            p50min(glossAfter.runs.map((r) => r.queryMs[1]!)),
            verdict(median(glossAfter.runs.map((r) => r.queryMs[1]!)), TARGETS.firstForeignQuery),
          ],
          [
            `\`carte serve\` RSS < ${TARGETS.serveRssMiB} MiB, big catalog, after a Chinese, a Japanese, a Spanish and a German query`,
            `${median(glossRss).toFixed(0)} MiB (max ${Math.max(...glossRss).toFixed(0)})`,
            verdict(median(glossRss), TARGETS.serveRssMiB),
          ],
        ],
      ),
    );
    const path = writeJson('core', {
      machine: m,
      runs,
      warnings: stale ? [stale] : [],
      sync: { ...sync, cleanup: undefined, dataDir: undefined, cwd: undefined },
      bigCatalog: { servers: catalog.servers.length, tools: catalog.toolCount, writeMs: catalog.writeMs },
      synthetic: { ...scale.bench, writeMs: scale.writeMs },
      search: searches,
      hybridCold,
      embedBatching,
      serve: serves,
      gloss,
      targets: TARGETS,
    });
    console.log(out.join('\n'));
    console.log(`\nwrote ${path}`);
  } finally {
    big.cleanup();
    sync.cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
