// Warm lexical search latency at ~7k tools, for one or more checkouts measured in ONE run:
// `npx tsx bench/core/search-latency.ts [--root DIR]... [--passes N] [--queries N]`.
// Each root's own src/ and bench/core/big-catalog.ts write its catalog and answer its searches;
// the builds take turns pass by pass, so the noise of a shared machine lands on all of them.
// Compare builds only as ratios from the same run. Also checks that the builds rank alike.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchDataDir, loadBigCatalog, loadQueries, type BenchTool } from './bench-data.js';
import { QUIET } from './logger.js';
import { ROOT, numberFlag, tempDir } from './paths.js';
import { machine, machineLine, progress, table } from './report.js';
import { ms, ratio, summarize, type Summary } from './stats.js';

type GatewayOptions = { servers: unknown[]; store: unknown; logger: unknown };

/**
 * The slice of a checkout's API this bench uses; stable since 2026-11-23 (34fea3b), async since
 * the store went async (openStore, writeBigCatalog and store.close answer promises, and
 * `Gateway.open` replaced the constructor): both shapes are accepted, to compare across the change.
 */
interface BuildApi {
  writeBigCatalog: (
    dir: string,
    tools: readonly BenchTool[],
  ) => MaybePromise<{ dataDir: string; servers: unknown[] }>;
  Gateway: (new (opts: GatewayOptions) => Searcher) & { open?: (opts: GatewayOptions) => Promise<Searcher> };
  openStore: (path: string) => MaybePromise<{ close: () => MaybePromise<void> }>;
  LOCAL_CALLER: unknown;
}

type MaybePromise<T> = T | Promise<T>;

interface Searcher {
  searchTools: (ctx: unknown, query: string | string[]) => { key: string; relevance: number }[];
  close: () => Promise<void>;
}

interface Build {
  label: string;
  search: (query: string | string[]) => string[];
  times: number[][];
  close: () => Promise<void>;
}

function rootsFromArgv(): string[] {
  const roots = process.argv.flatMap((a, i) => (a === '--root' ? [process.argv[i + 1] ?? ''] : []));
  return (roots.length ? roots : [ROOT]).map((r) => resolve(r));
}

function labelOf(root: string): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--', 'src').split('\n').filter(Boolean).length;
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? '+dirty' : ''} (${root})`;
  } catch {
    return root;
  }
}

async function openBuild(root: string, tools: readonly BenchTool[], dir: string): Promise<Build> {
  const load = (p: string) => import(pathToFileURL(join(root, p)).href) as Promise<Partial<BuildApi>>;
  const api = { ...(await load('src/gateway/index.ts')), ...(await load('bench/core/big-catalog.ts')) };
  const { writeBigCatalog, Gateway, openStore, LOCAL_CALLER } = api as BuildApi;
  mkdirSync(dir);
  const catalog = await writeBigCatalog(dir, tools);
  const store = await openStore(join(catalog.dataDir, 'carte.db'));
  const options = { servers: catalog.servers, store, logger: QUIET };
  const gateway = Gateway.open ? await Gateway.open(options) : new Gateway(options);
  return {
    label: labelOf(root),
    search: (q) => gateway.searchTools(LOCAL_CALLER, q).map((r) => `${r.key}:${r.relevance}`),
    times: [],
    close: async () => {
      await gateway.close();
      await store.close();
    },
  };
}

async function main(): Promise<void> {
  const passes = numberFlag('passes', 10);
  const data = benchDataDir();
  const tools = loadBigCatalog(data);
  const queries = loadQueries(data, numberFlag('queries', 200));
  const temp = tempDir();
  const builds: Build[] = [];
  try {
    for (const [i, root] of rootsFromArgv().entries()) {
      progress(`opening ${root}`);
      builds.push(await openBuild(root, tools, join(temp.dir, String(i))));
    }
    // First search (index build) and a warm-up pass for the JIT; the answers are kept to compare.
    const answers = builds.map((b) => queries.map((q) => b.search(q.query).join(',')));
    for (const b of builds) b.times = queries.map(() => []);
    for (let p = 0; p < passes; p++) {
      // Rotate who goes first so no build always runs right after the same neighbour.
      for (let k = 0; k < builds.length; k++) {
        const b = builds[(p + k) % builds.length]!;
        queries.forEach((q, i) => {
          const t = performance.now();
          b.search(q.query);
          b.times[i]!.push(performance.now() - t);
        });
      }
    }
    console.log(report(builds, answers, passes, queries.length));
  } finally {
    for (const b of builds) await b.close();
    temp.cleanup();
  }
}

function report(builds: readonly Build[], answers: string[][], passes: number, n: number): string {
  const stats = builds.map((b) => ({
    all: summarize(b.times.flat()),
    best: summarize(b.times.map((t) => Math.min(...t))),
  }));
  const base = stats[0]!;
  const rel = (s: Summary, b: Summary) => `${ms(s.p95)} (${ratio(s.p95, b.p95)})`;
  const same = (i: number) => answers[i]!.filter((a, q) => a === answers[0]![q]).length;
  return [
    `# Search latency at ~7k tools, lexical, \`Gateway.searchTools\`, ${passes} passes x ${n} queries`,
    '',
    machineLine(machine()),
    '',
    table(
      [
        'build',
        'p50 ms',
        'p95 ms (vs first)',
        'p99 ms',
        'best-of p50',
        'best-of p95 (vs first)',
        'same answers as first',
      ],
      builds.map((b, i) => {
        const s = stats[i]!;
        return [
          b.label,
          `${ms(s.all.p50)} (${ratio(s.all.p50, base.all.p50)})`,
          rel(s.all, base.all),
          ms(s.all.p99),
          ms(s.best.p50),
          rel(s.best, base.best),
          `${same(i)}/${n}`,
        ];
      }),
    ),
  ].join('\n');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
