// Profiles `carte serve` under load:
// `npx tsx bench/load/profile.ts [--seconds S] [--workers N] [--top N] [--keep out.cpuprofile]
// [--sessions N] [--http modern|legacy [--sessions 16] [--raw-procs 2] [--pg [postgres://...]]]
// [--upstream stdio|http]`.
// One session calls everything/echo through a Carte started with `node --cpu-prof` (with --http:
// one `carte serve --http` under the raw load generator, raw-load.ts); when Carte exits it writes
// its profile, and this prints self time (`--upstream http`: a stdio session, with everything
// in its Streamable HTTP mode behind Carte; `--sessions N` over stdio: N sessions, each its own
// Carte, their profiles added up) by function and by file (node_modules packages lumped
// together), so the costs of one proxied call can be read off. `--pg`: the `--http` Carte on a
// scratch PostgreSQL database (dropped at the end), with its queries counted by pg-query-count.mjs.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flag, hasFlag, numberFlag, requireBuild, tempDir } from '../core/paths.js';
import { table } from '../core/report.js';
import { CONFIGS, setupCarte } from './configs.js';
import { startCarteHttp } from './http-face.js';
import { startEverythingHttp } from './http-upstream.js';
import { DEFAULT_PG_URL, connectPg, cpuSpent, type PgServer } from './pg-database.js';
import { RawLoad, recordCall } from './raw-load.js';
import { openSession } from './sessions.js';
import { runLoop } from './workload.js';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where a frame's code lives: a package name, a path under the project, or the V8/Node category. */
function placeOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const dist = url.indexOf('/dist/');
  return dist >= 0 ? url.slice(dist + 1) : url;
}

export interface SelfTimes {
  byFunction: Map<string, number>;
  byPlace: Map<string, number>;
  /** Keyed by the sampled frame and its first three callers, so native time says whose it is. */
  byCaller: Map<string, number>;
  totalMs: number;
}

const add = (m: Map<string, number>, k: string, ms: number) => m.set(k, (m.get(k) ?? 0) + ms);

/** Self time in ms of the samples taken within `window` (V8's monotonic µs), from their deltas. */
export function selfTimes(p: Profile, window: { fromUs: number; toUs: number }): SelfTimes {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${placeOf(n.callFrame.url, n.callFrame.functionName)}:${n.callFrame.lineNumber + 1}`;
  const chain = (n: ProfileNode) => {
    const names = [label(n)];
    for (let id = parent.get(n.id); id !== undefined && names.length < 4; id = parent.get(id))
      names.push(label(byId.get(id)!));
    return names.join(' < ');
  };
  const out: SelfTimes = { byFunction: new Map(), byPlace: new Map(), byCaller: new Map(), totalMs: 0 };
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    at += p.timeDeltas[i] ?? 0;
    const n = byId.get(id);
    if (!n || at < window.fromUs || at > window.toUs) return;
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    add(out.byFunction, label(n), ms);
    add(out.byPlace, placeOf(n.callFrame.url, n.callFrame.functionName), ms);
    add(out.byCaller, chain(n), ms);
    out.totalMs += ms;
  });
  return out;
}

/** Several processes' self times added up. */
function sumTimes(all: readonly SelfTimes[]): SelfTimes {
  const out: SelfTimes = { byFunction: new Map(), byPlace: new Map(), byCaller: new Map(), totalMs: 0 };
  for (const t of all) {
    for (const key of ['byFunction', 'byPlace', 'byCaller'] as const)
      for (const [k, ms] of t[key]) add(out[key], k, ms);
    out.totalMs += t.totalMs;
  }
  return out;
}

function top(m: Map<string, number>, totalMs: number, n: number, calls: number): string {
  const rows = [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  return table(
    ['where', 'self ms', '%', 'µs per call'],
    rows.map(([k, ms]) => [
      k,
      ms.toFixed(0),
      ((100 * ms) / totalMs).toFixed(1),
      ((ms / calls) * 1000).toFixed(1),
    ]),
  );
}

/** The measured loop's window (V8's monotonic clock, µs) and its successful calls. */
interface Measured {
  fromUs: number;
  toUs: number;
  calls: number;
  elapsedMs: number;
}

// V8 stamps samples with the monotonic clock in µs, as hrtime here: keep only the measured loop.
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** One stdio session, `workers` calls in flight; Carte exits (and writes its profile) when it closes. */
async function loadStdio(
  dir: string,
  profDir: string,
  seconds: number,
  workers: number,
  upstreamUrl?: string,
): Promise<Measured> {
  const setup = await setupCarte(dir, 'stdio', upstreamUrl ? CONFIGS.http(upstreamUrl) : CONFIGS.stdio());
  const sessions = await Promise.all(
    Array.from({ length: numberFlag('sessions', 1) }, () =>
      openSession({ kind: 'carte', ...setup, nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir] }),
    ),
  );
  await runLoop(sessions, { key: 'everything/echo', workers, durationMs: 500 });
  const fromUs = nowUs();
  const stats = await runLoop(sessions, { key: 'everything/echo', workers, durationMs: seconds * 1000 });
  const toUs = nowUs();
  await Promise.all(sessions.map((s) => s.close()));
  return { fromUs, toUs, calls: stats.ok, elapsedMs: stats.elapsedMs };
}

const QUERY_COUNTER = join(dirname(fileURLToPath(import.meta.url)), 'pg-query-count.mjs');

/** `carte serve --http` under raw replayed POSTs; SIGTERM makes it exit and write its profile. */
async function loadHttp(
  dir: string,
  profDir: string,
  seconds: number,
  opts: { era: string; pg?: PgServer },
): Promise<Measured> {
  const { era, pg } = opts;
  if (era !== 'modern' && era !== 'legacy') throw new Error(`--http takes modern or legacy, not "${era}"`);
  const queryLog = join(dir, 'queries');
  const env = pg && {
    CARTE_DATABASE_URL: await pg.createDatabase('profile'),
    CARTE_BENCH_QUERY_LOG: queryLog,
  };
  const setup = await setupCarte(dir, 'http', CONFIGS.stdio(), env);
  const counting = pg ? ['--import', QUERY_COUNTER] : [];
  const carte = await startCarteHttp(setup, dir, {
    nodeArgs: [...counting, '--cpu-prof', '--cpu-prof-dir', profDir],
  });
  const target = { url: carte.url, era, token: carte.token, key: 'everything/echo' } as const;
  const recorded = await Promise.all(
    Array.from({ length: numberFlag('sessions', 16) }, () => recordCall(target)),
  );
  const load = await RawLoad.start(
    recorded.map((r) => r.connection),
    numberFlag('raw-procs', 2),
  );
  try {
    await load.segment(3000); // V8 compiles the call path for a few seconds (see compare.ts)
    const before = pg && (await queryCounts(carte.pid, `${queryLog}.0`));
    const pgBefore = pg?.cpuMs() ?? new Map<number, number>();
    const fromUs = nowUs();
    const { stats } = await load.segment(seconds * 1000);
    const toUs = nowUs();
    const pgMs = pg ? cpuSpent(pgBefore, pg.cpuMs()) : 0;
    const after = pg && (await queryCounts(carte.pid, `${queryLog}.1`));
    if (before && after) printQueries(before, after, stats.ok, pgMs);
    return { fromUs, toUs, calls: stats.ok, elapsedMs: stats.elapsedMs };
  } finally {
    await load.stop();
    await Promise.all(recorded.map((r) => r.close().catch(() => undefined)));
    await carte.stop();
  }
}

/** Asks the counter in Carte (SIGUSR2) for its counts and reads them from `file`. */
async function queryCounts(pid: number, file: string): Promise<Record<string, number>> {
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 50)); // the write is one synchronous call; let it finish
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
}

function printQueries(
  before: Record<string, number>,
  after: Record<string, number>,
  calls: number,
  pgMs: number,
): void {
  const rows = Object.entries(after)
    .map(([sql, n]) => [sql, n - (before[sql] ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((a, [, n]) => a + n, 0);
  console.log(
    `PostgreSQL: ${(total / calls).toFixed(2)} queries per call over ${calls} calls; the server's CPU ${((pgMs / calls) * 1000).toFixed(0)} µs per call\n`,
  );
  console.log(
    table(
      ['query (first 120 characters)', 'per call'],
      rows.map(([sql, n]) => [`\`${sql.replaceAll('|', '\\|')}\``, (n / calls).toFixed(3)]),
    ),
  );
  console.log('');
}

async function main(): Promise<void> {
  requireBuild();
  const seconds = numberFlag('seconds', 5);
  const workers = numberFlag('workers', 1);
  const n = numberFlag('top', 30);
  const tmp = tempDir('carte-prof-');
  try {
    const profDir = join(tmp.dir, 'prof');
    const era = flag('http');
    const upstreamKind = flag('upstream') ?? 'stdio';
    if (upstreamKind !== 'stdio' && upstreamKind !== 'http')
      throw new Error(`--upstream takes stdio or http, not "${upstreamKind}"`);
    if (upstreamKind === 'http' && era !== undefined)
      throw new Error('--upstream http profiles a stdio session only');
    if (hasFlag('pg') && era === undefined) throw new Error('--pg profiles the --http face only');
    const pgUrl = flag('pg');
    const pg = hasFlag('pg')
      ? await connectPg(pgUrl?.startsWith('postgres') ? pgUrl : DEFAULT_PG_URL)
      : undefined;
    const upstream = upstreamKind === 'http' ? await startEverythingHttp() : undefined;
    const { fromUs, toUs, calls, elapsedMs } = await (
      era === undefined
        ? loadStdio(tmp.dir, profDir, seconds, workers, upstream?.url)
        : loadHttp(tmp.dir, profDir, seconds, { era, ...(pg && { pg }) })
    ).finally(async () => {
      await upstream?.stop();
      await pg?.close();
    });
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (a worker
    // thread, such as the WAL checkpointer's, writes its own).
    // One main-thread profile per Carte process (several with --sessions over stdio): added up.
    const files = readdirSync(profDir).filter((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
    if (files.length === 0) throw new Error(`expected a main-thread profile in ${profDir}, found none`);
    const texts = files.map((f) => readFileSync(join(profDir, f), 'utf8'));
    const keep = flag('keep');
    if (keep) writeFileSync(keep, texts[0]!); // for Chrome DevTools or a closer look
    const { byFunction, byPlace, byCaller, totalMs } = sumTimes(
      texts.map((t) => selfTimes(JSON.parse(t) as Profile, { fromUs, toUs })),
    );
    const idle = byFunction.get('(idle) (idle):0') ?? 0;
    console.log(
      `${calls} calls in ${(elapsedMs / 1000).toFixed(1)} s (${era === undefined ? `${workers} in flight` : `HTTP, ${era} era`}); profile ${totalMs.toFixed(0)} ms, idle ${idle.toFixed(0)} ms; busy ${(((totalMs - idle) / calls) * 1000).toFixed(0)} µs per call (the measured loop only)\n`,
    );
    console.log(
      `## By place\n\n${top(byPlace, totalMs, n, calls)}\n\n## By function\n\n${top(byFunction, totalMs, n, calls)}\n\n## By function and callers\n\n${top(byCaller, totalMs, n, calls)}`,
    );
  } finally {
    tmp.cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
