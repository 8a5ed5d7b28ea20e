// (b) Search latency through `Gateway.searchTools`, in process, over a real store; and the CLI's
// cold start (`carte search ... --json`) as a whole process.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { Gateway, LOCAL_CALLER, openStore, type GatewayServer } from '../../src/gateway/index.js';
import { SNAPSHOT_MIN_TOOLS } from '../../src/gateway/find/index-snapshot.js';
import type { BenchQuery } from './bench-data.js';
import { QUIET } from './logger.js';
import { runOk } from './proc.js';
import { median, ms, summarize, type Summary } from './stats.js';
import { table } from './report.js';

export interface CatalogTarget {
  label: string;
  dataDir: string;
  servers: GatewayServer[];
  /** CLI arguments that select this catalog (config and data dir). */
  cliArgs: string[];
  /** Where the CLI runs (an empty dir for the demo config). */
  cwd: string;
}

export interface SearchBench {
  label: string;
  tools: number;
  /**
   * `Gateway.open(...)` and `prepareSearch` over the stored catalog, its index snapshot stored:
   * prunes and reconciles every server, reads the catalog into memory, and reads the index.
   */
  openMs: number[];
  /** The same with no snapshot stored (a new or changed catalog): analysed and a snapshot stored. */
  openNoSnapshotMs: number[];
  /** `store.tools.listAll()`: reading every row. */
  listAllMs: number[];
  /** The first query of a gateway opened from the snapshot. */
  firstSearchMs: number[];
  /** Every sample of every measured pass (passes x queries). */
  latency: Summary;
  /** Per query, its best time over the passes: the cost without scheduler and GC noise. */
  bestOf: Summary;
  byKind: Record<string, Summary>;
  passes: number;
  /** Garbage collection during the measured passes. */
  gc: { count: number; ms: number; maxMs: number };
  slowest: { kind: string; query: string; bestMs: number; worstMs: number }[];
  cliColdMs: number[];
  /** `carte search` with no index snapshot stored: its first run after a catalog change. */
  cliNoSnapshotMs: number[];
  /** CPU (user + system) of each `carte search` process, when GNU time is installed. */
  cliColdCpuMs: number[];
  /** `carte servers --json` on the same catalog: CLI start, config, store, no search index. */
  cliServersMs: number[];
  /** `carte search` cold with one hide rule (a caller's index derived from the catalog's); empty for a config it cannot edit. */
  cliHideRuleMs: number[];
  cliResults: number;
}

const REBUILDS = 3;

/** Warm latency: one warm-up pass (JIT), then `passes` timed passes over the queries. */
async function timeSearches(
  gw: Gateway,
  queries: readonly BenchQuery[],
  passes: number,
): Promise<Pick<SearchBench, 'latency' | 'bestOf' | 'byKind' | 'passes' | 'gc' | 'slowest'>> {
  for (const q of queries) gw.searchTools(LOCAL_CALLER, q.query);
  const times = queries.map(() => [] as number[]);
  const gc = watchGc();
  for (let p = 0; p < passes; p++) {
    queries.forEach((q, i) => {
      const t = performance.now();
      gw.searchTools(LOCAL_CALLER, q.query);
      times[i]!.push(performance.now() - t);
    });
  }
  const gcStats = await gc.stop();
  const kinds = [...new Set(queries.map((q) => q.kind))];
  const byKind = Object.fromEntries(
    kinds.map((k) => [k, summarize(times.filter((_, i) => queries[i]!.kind === k).flat())]),
  );
  const slowest = queries
    .map((q, i) => ({
      kind: q.kind,
      query: JSON.stringify(q.query).slice(0, 160),
      bestMs: Math.min(...times[i]!),
      worstMs: Math.max(...times[i]!),
    }))
    .sort((a, b) => b.bestMs - a.bestMs)
    .slice(0, 5);
  return {
    latency: summarize(times.flat()),
    bestOf: summarize(times.map((t) => Math.min(...t))),
    byKind,
    passes,
    gc: gcStats,
    slowest,
  };
}

/** Warm search latency on a large catalog, and what its first open costs; no CLI runs. */
export interface ScaleBench extends Pick<
  SearchBench,
  'label' | 'tools' | 'latency' | 'bestOf' | 'byKind' | 'passes' | 'gc' | 'slowest'
> {
  /** Gateway.open and its first search with no snapshot stored: rows, analysis, snapshot write, query. */
  firstSearchNoSnapshotMs: number;
  /** The same again from that snapshot. */
  firstSearchMs: number;
}

/** `benchSearch`'s warm latency alone, for a catalog too large to rebuild several times per run. */
export async function benchSearchAtScale(
  target: Pick<CatalogTarget, 'label' | 'dataDir' | 'servers'>,
  queries: readonly BenchQuery[],
  passes: number,
): Promise<ScaleBench> {
  const store = await openStore(join(target.dataDir, 'carte.db'));
  try {
    const tools = (await store.tools.listAll()).length;
    const first = queries[0]!.query;
    let t = performance.now();
    const fresh = await Gateway.open({ servers: target.servers, store, logger: QUIET });
    await fresh.prepareSearch(LOCAL_CALLER);
    fresh.searchTools(LOCAL_CALLER, first);
    const firstSearchNoSnapshotMs = performance.now() - t;
    await fresh.close();
    t = performance.now();
    const gw = await Gateway.open({ servers: target.servers, store, logger: QUIET });
    await gw.prepareSearch(LOCAL_CALLER);
    gw.searchTools(LOCAL_CALLER, first);
    const firstSearchMs = performance.now() - t;
    try {
      const timed = await timeSearches(gw, queries, passes);
      return { label: target.label, tools, firstSearchNoSnapshotMs, firstSearchMs, ...timed };
    } finally {
      await gw.close();
    }
  } finally {
    await store.close();
  }
}

/** Times the in-process search and `carte search` cold start on one catalog. */
export async function benchSearch(
  target: CatalogTarget,
  queries: readonly BenchQuery[],
  opts: { passes: number; cliRuns: number },
): Promise<SearchBench> {
  const store = await openStore(join(target.dataDir, 'carte.db'));
  const openMs: number[] = [];
  const openNoSnapshotMs: number[] = [];
  const listAllMs: number[] = [];
  const firstSearchMs: number[] = [];
  let gateway: Gateway | undefined;
  let tools = 0;
  try {
    // Alternating: a build with no snapshot (which stores one), then a start from that snapshot.
    for (let i = 0; i < 2 * REBUILDS; i++) {
      await gateway?.close();
      const fromSnapshot = i % 2 === 1;
      if (!fromSnapshot) await store.snapshots.clear();
      let t = performance.now();
      tools = (await store.tools.listAll()).length;
      listAllMs.push(performance.now() - t);
      t = performance.now();
      const opened = await Gateway.open({ servers: target.servers, store, logger: QUIET });
      // As `carte search` and `serve` do: the index from its snapshot, or analysed and stored (a
      // synchronous search without it analyses in place and never reads or writes a snapshot).
      await opened.prepareSearch(LOCAL_CALLER);
      gateway = opened;
      (fromSnapshot ? openMs : openNoSnapshotMs).push(performance.now() - t);
      t = performance.now();
      opened.searchTools(LOCAL_CALLER, queries[0]!.query);
      if (fromSnapshot) firstSearchMs.push(performance.now() - t);
    }
    const gw = gateway!;
    const timed = await timeSearches(gw, queries, opts.passes);
    await gw.close();
    const cli = await benchCli(target, opts.cliRuns);
    return {
      label: target.label,
      tools,
      openMs,
      openNoSnapshotMs,
      listAllMs,
      firstSearchMs,
      ...timed,
      ...cli,
    };
  } finally {
    await store.close();
  }
}

const CLI_QUERY = 'search for objects in a museum collection';

/** Counts GC pauses until `stop` (the observer delivers entries asynchronously). */
function watchGc(): { stop: () => Promise<{ count: number; ms: number; maxMs: number }> } {
  const pauses: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push(e.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop: async () => {
      await new Promise((r) => setTimeout(r, 50));
      observer.disconnect();
      const total = pauses.reduce((a, b) => a + b, 0);
      return { count: pauses.length, ms: total, maxMs: pauses.length ? Math.max(...pauses) : 0 };
    },
  };
}

/** `carte search` and `carte servers` as whole processes, alternating, `runs` times each. */
async function benchCli(
  target: CatalogTarget,
  runs: number,
): Promise<{
  cliColdMs: number[];
  cliNoSnapshotMs: number[];
  cliColdCpuMs: number[];
  cliServersMs: number[];
  cliHideRuleMs: number[];
  cliResults: number;
}> {
  const cliColdMs: number[] = [];
  const cliNoSnapshotMs: number[] = [];
  const cliColdCpuMs: number[] = [];
  const cliServersMs: number[] = [];
  const cliHideRuleMs: number[] = [];
  const ruled = withHideRule(target.cliArgs);
  let cliResults = 0;
  for (let i = 0; i < runs; i++) {
    const run = await runOk(['search', CLI_QUERY, '--json', ...target.cliArgs], { cwd: target.cwd });
    cliResults = (JSON.parse(run.stdout) as { results: unknown[] }).results.length;
    // An empty answer would mean the CLI wiped or missed the stored catalog: the timing would be a lie.
    if (cliResults === 0) throw new Error(`carte search on ${target.label} returned nothing`);
    cliColdMs.push(run.ms);
    if (run.cpuMs !== undefined) cliColdCpuMs.push(run.cpuMs);
    cliServersMs.push((await runOk(['servers', '--json', ...target.cliArgs], { cwd: target.cwd })).ms);
    // The same catalog and snapshot (rules do not change what the catalog index holds).
    if (ruled)
      cliHideRuleMs.push((await runOk(['search', CLI_QUERY, '--json', ...ruled], { cwd: target.cwd })).ms);
    // The first search after a catalog change: no snapshot yet (this run stores the next one).
    const store = await openStore(join(target.dataDir, 'carte.db'));
    await store.snapshots.clear();
    await store.close();
    cliNoSnapshotMs.push(
      (await runOk(['search', CLI_QUERY, '--json', ...target.cliArgs], { cwd: target.cwd })).ms,
    );
  }
  return { cliColdMs, cliNoSnapshotMs, cliColdCpuMs, cliServersMs, cliHideRuleMs, cliResults };
}

/**
 * The CLI arguments with `--config` pointing at a copy of a JSON config that hides `*delete*`
 * tools; undefined when the arguments name no JSON config (the demo).
 */
function withHideRule(args: readonly string[]): string[] | undefined {
  const at = args.indexOf('--config');
  const path = at >= 0 ? args[at + 1] : undefined;
  if (path === undefined || !path.endsWith('.json')) return undefined;
  const config = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const ruled = join(dirname(path), 'carte-hide-rule.json');
  writeFileSync(ruled, JSON.stringify({ ...config, rules: [{ match: ['*delete*'], enabled: false }] }));
  return args.map((a, i) => (i === at + 1 ? ruled : a));
}

export function searchTable(benches: readonly SearchBench[], nodeBareMs: number): string {
  const first = benches[0];
  const latency = table(
    [...LATENCY_COLUMNS, 'GC pauses (total ms)'],
    benches.map((b) => [...latencyCells(b), gcCell(b)]),
  );
  const kinds = table(
    ['catalog', ...Object.keys(first?.byKind ?? {}).flatMap((k) => [`${k} p50`, `${k} p95`])],
    benches.map((b) => [b.label, ...Object.values(b.byKind).flatMap((s) => [ms(s.p50), ms(s.p95)])]),
  );
  const build = table(
    [
      'catalog',
      'open + index from its snapshot',
      '... no snapshot stored',
      'listAll rows',
      'first query',
      '`carte search` cold p50',
      '... no snapshot stored',
      '... a hide rule',
      'min',
      'CPU p50',
      '`carte servers` p50',
      'search minus servers',
      '`node -e 0`',
    ],
    benches.map((b) => [
      b.label,
      ms(median(b.openMs)),
      ms(median(b.openNoSnapshotMs)),
      ms(median(b.listAllMs)),
      ms(median(b.firstSearchMs)),
      ms(median(b.cliColdMs)),
      ms(median(b.cliNoSnapshotMs)),
      b.cliHideRuleMs.length ? ms(median(b.cliHideRuleMs)) : '-',
      ms(Math.min(...b.cliColdMs)),
      ms(median(b.cliColdCpuMs)),
      ms(median(b.cliServersMs)),
      ms(median(b.cliColdMs) - median(b.cliServersMs)),
      ms(nodeBareMs),
    ]),
  );
  return [
    `Warm search latency, \`Gateway.searchTools\` in process over a real store, default limit 8, one warm-up pass then ${first?.passes ?? 0} passes over ${first?.bestOf.n ?? 0} queries. "best-of" is each query's fastest pass: its cost without scheduler and GC noise.`,
    '',
    latency,
    '',
    'By query kind (task: whole task text; step: one annotated step; steps[]: all steps as one array query), all passes, ms:',
    '',
    kinds,
    '',
    `Index build and cold start, ms (in-process: median of ${REBUILDS}; CLI: median of ${first?.cliColdMs.length ?? 0} runs, wall time spawn to exit). Catalogs of ${SNAPSHOT_MIN_TOOLS} tools or more store the index's analysis as a snapshot; "no snapshot stored" is the first start after a catalog change (it analyses the catalog and stores one):`,
    '',
    build,
  ].join('\n');
}

/** The large catalog's warm latency, by kind, and its two opens. */
export function scaleTable(b: ScaleBench): string {
  return table(
    [
      ...LATENCY_COLUMNS,
      ...Object.keys(b.byKind).map((k) => `${k} p95`),
      'GC pauses (total ms)',
      'open + first search, no snapshot ms',
      '... from its snapshot ms',
    ],
    [
      [
        ...latencyCells(b),
        ...Object.values(b.byKind).map((k) => ms(k.p95)),
        gcCell(b),
        ms(b.firstSearchNoSnapshotMs),
        ms(b.firstSearchMs),
      ],
    ],
  );
}

const LATENCY_COLUMNS = [
  'catalog',
  'tools',
  'samples',
  'p50 ms',
  'p95 ms',
  'p99 ms',
  'max ms',
  'best-of p50',
  'best-of p95',
  'best-of p99',
];

type Timed = Pick<SearchBench, 'label' | 'tools' | 'latency' | 'bestOf' | 'passes' | 'gc'>;

/** A catalog's row under LATENCY_COLUMNS. */
function latencyCells(b: Timed): string[] {
  const { latency, bestOf } = b;
  return [
    b.label,
    String(b.tools),
    `${b.passes} x ${bestOf.n}`,
    ...[latency.p50, latency.p95, latency.p99, latency.max, bestOf.p50, bestOf.p95, bestOf.p99].map((x) =>
      ms(x),
    ),
  ];
}

const gcCell = (b: Timed): string => `${b.gc.count} (${ms(b.gc.ms)})`;
