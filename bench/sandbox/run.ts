// Sandbox bench (issue 42): `npx tsx bench/sandbox/run.ts [--runs N] [--calls N] [--rounds N] [--srt DIR] [--cpu-only]`.
// The faults fixture as a stdio upstream, unconfined against the same server in bubblewrap (no
// network; with cgroup limits; with a network grant, which adds the in-sandbox forwarder, once in
// Node and once in Perl) and,
// when --srt names a folder where `npm i @anthropic-ai/sandbox-runtime` was run, under srt.
// Start-up: spawn to the end of the first tools/list, median of N fresh starts, arms interleaved,
// twice: a first connect (no era known: the SDK's era probe runs, on a sibling process when
// unconfined, in place when sandboxed) and a later start (the era the first one learned, as the
// gateway passes it from the store: no probe). CPU per call: N sequential echo calls over one
// connection per arm, in --rounds rounds interleaved across arms (median); Carte's CPU
// (process.cpuUsage) and the upstream tree's divided by N: from a cpuacct group of its own when
// cgroup v1 cpuacct is writable (root here: nanoseconds, every process of the tree moved in once it
// has started), else every process below the spawned one from /proc (10 ms ticks). Prints markdown. bench/sandbox/micro.ts measures the parts.
// The upstream column also gives the middle half of the rounds (p25-p75), and the last column the
// median of each round's ratio to the unconfined arm's round beside it (pairing cancels the
// machine's drift between rounds). --cpu-only skips the start-ups.
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpstreamPool, type KnownEra, type UpstreamTarget } from '../../src/upstream/index.js';
import type { UpstreamConnection } from '../../src/upstream/index.js';
import { builtinDenyRead } from '../../src/config/validate/resolve-sandbox.js';
import { flag, hasFlag, numberFlag } from '../core/paths.js';
import { cpuTimeMs, descendantsOf } from '../load/proc-info.js';

const RUNS = numberFlag('runs', 9);
const CALLS = numberFlag('calls', 2000);
const ROUNDS = numberFlag('rounds', 3);
const SRT = flag('srt');
const CPU_ONLY = hasFlag('cpu-only');
const SERVER = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'faults.mjs');
const logger = { debug() {}, info() {}, warn() {}, error() {} };
const work = mkdtempSync(join(tmpdir(), 'carte-sandbox-bench-'));
const env = { HOME: process.env.HOME ?? '/root' };
const base = {
  network: [],
  allowWrite: [],
  denyRead: builtinDenyRead({ env, dataDir: work }),
  stateDir: join(work, 's'),
};
const plain: UpstreamTarget = { kind: 'stdio', command: process.execPath, args: [SERVER], env: {} };

const arms: [string, UpstreamTarget][] = [
  ['unconfined', plain],
  ['bwrap, no network', { ...plain, sandbox: base }],
  ['bwrap + cgroup limits', { ...plain, sandbox: { ...base, memoryMb: 512, maxProcesses: 64 } }],
  [
    'bwrap + grant, Node forwarder',
    { ...plain, sandbox: { ...base, network: ['localhost:9'], forwarder: 'node' } },
  ],
  [
    'bwrap + grant, Perl forwarder',
    { ...plain, sandbox: { ...base, network: ['localhost:9'], forwarder: 'perl' } },
  ],
];
if (SRT) {
  const settings = join(work, 'srt.json');
  writeFileSync(
    settings,
    JSON.stringify({
      network: { allowedDomains: [], deniedDomains: [] },
      filesystem: { denyRead: base.denyRead, allowWrite: [base.stateDir], denyWrite: [] },
    }),
  );
  const srt = join(SRT, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'dist', 'cli.js');
  arms.push([
    'srt 0.0.83',
    { ...plain, command: process.execPath, args: [srt, '-s', settings, '--', process.execPath, SERVER] },
  ]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const treeCpu = (pid: number) =>
  [pid, ...descendantsOf(pid).map((d) => d.pid)].reduce((t, p) => t + (cpuTimeMs(p) || 0), 0);

async function startOnce(target: UpstreamTarget, known: KnownEra | null): Promise<[number, KnownEra]> {
  const pool = new UpstreamPool();
  const t0 = performance.now();
  const conn = await pool.connect('bench', target, { timeoutMs: 30_000, logger, known });
  await conn.listTools(30_000);
  const ms = performance.now() - t0;
  const learned = { version: conn.info.protocolEra, discover: conn.info.discoverResult };
  await pool.closeAll();
  return [ms, learned];
}

/** Start-up of every arm, first connects and later starts interleaved run by run. */
async function startups(): Promise<{ first: number; later: number }[]> {
  const first = arms.map((): number[] => []);
  const later = arms.map((): number[] => []);
  for (let i = 0; i < RUNS; i++)
    for (const [a, [, target]] of arms.entries()) {
      const [ms, learned] = await startOnce(target, null);
      first[a]!.push(ms);
      later[a]!.push((await startOnce(target, learned))[0]);
    }
  return arms.map((_, a) => ({ first: median(first[a]!), later: median(later[a]!) }));
}

const CPUACCT = '/sys/fs/cgroup/cpuacct';
const canAccount = (() => {
  try {
    accessSync(join(CPUACCT, 'cgroup.procs'), constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

/** Moves an upstream's whole tree into a cpuacct group of its own; returns a reader of its CPU (ms). */
function accountTree(pid: number, name: string): (() => number) | null {
  if (!canAccount) return null;
  const dir = join(CPUACCT, `carte-bench-${process.pid}-${name}`);
  mkdirSync(dir);
  groups.push(dir);
  for (const p of [pid, ...descendantsOf(pid).map((d) => d.pid)])
    writeFileSync(join(dir, 'cgroup.procs'), String(p));
  return () => Number(readFileSync(join(dir, 'cpuacct.usage'), 'utf8')) / 1e6;
}
const groups: string[] = [];

async function round(
  conn: UpstreamConnection,
  cpu: () => number,
): Promise<{ carte: number; upstream: number }> {
  const up0 = cpu();
  const c0 = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await conn.callTool('echo', { text: `n${i}` }, { timeoutMs: 10_000 });
  const c = process.cpuUsage(c0);
  const up = cpu() - up0;
  return { carte: (c.user + c.system) / 1000 / CALLS, upstream: up / CALLS };
}

function tryRmdir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)]!;

interface CpuFigures {
  carte: number;
  upstream: number;
  /** p25 and p75 of the rounds' upstream CPU per call. */
  spread: [number, number];
  /** Median over rounds of upstream[r] / unconfined upstream[r]. */
  pairedRatio: number;
}

/** CPU per call of the non-srt arms: one connection each, rounds interleaved across arms. */
async function cpuPerCall(): Promise<CpuFigures[]> {
  const pool = new UpstreamPool();
  const conns: (UpstreamConnection | null)[] = [];
  const meters: (() => number)[] = [];
  for (const [a, [name, target]] of arms.entries()) {
    if (name.startsWith('srt')) {
      conns.push(null);
      continue;
    }
    const conn = await pool.connect(`a${a}`, target, { timeoutMs: 30_000, logger });
    for (let i = 0; i < 200; i++) await conn.callTool('echo', { text: 'warm' }, { timeoutMs: 10_000 });
    conns.push(conn);
    meters.push(accountTree(conn.pid!, `a${a}`) ?? (() => treeCpu(conn.pid!)));
  }
  const rounds = conns.map((): { carte: number; upstream: number }[] => []);
  for (let r = 0; r < ROUNDS; r++)
    for (const [a, conn] of conns.entries()) if (conn) rounds[a]!.push(await round(conn, meters[a]!));
  await pool.closeAll();
  for (const dir of groups)
    for (let t = 0; t < 100 && !tryRmdir(dir); t++) await new Promise((ok) => setTimeout(ok, 50));
  const base = rounds[0]!.map((x) => x.upstream);
  return rounds.map((rs) => {
    const up = rs.map((x) => x.upstream);
    return rs.length
      ? {
          carte: median(rs.map((x) => x.carte)),
          upstream: median(up),
          spread: [quantile(up, 0.25), quantile(up, 0.75)],
          pairedRatio: median(up.map((u, r) => u / base[r]!)),
        }
      : {
          carte: Number.NaN,
          upstream: Number.NaN,
          spread: [Number.NaN, Number.NaN],
          pairedRatio: Number.NaN,
        };
  });
}

console.log(
  `| arm | first connect p50 (ms) | later start p50 (ms) | Carte CPU/call (ms) | upstream CPU/call (ms), p25-p75 | upstream vs unconfined, paired |`,
);
console.log('|---|---:|---:|---:|---:|---:|');
const starts = !CPU_ONLY ? await startups() : arms.map(() => ({ first: Number.NaN, later: Number.NaN }));
const cpu = await cpuPerCall();
for (const [a, [name]] of arms.entries()) {
  const f = (x: number, digits = 3) => (Number.isNaN(x) ? '-' : x.toFixed(digits));
  const s = starts[a]!;
  const c = cpu[a]!;
  const pct = Number.isNaN(c.pairedRatio)
    ? '-'
    : `${c.pairedRatio >= 1 ? '+' : ''}${((c.pairedRatio - 1) * 100).toFixed(0)} %`;
  console.log(
    `| ${name} | ${f(s.first, 0)} | ${f(s.later, 0)} | ${f(c.carte)} | ${f(c.upstream)}, ${f(c.spread[0])}-${f(c.spread[1])} | ${pct} |`,
  );
}
rmSync(work, { recursive: true, force: true });
