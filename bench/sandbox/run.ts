// Sandbox bench (issue 42): `npx tsx bench/sandbox/run.ts [--runs N] [--calls N] [--rounds N] [--srt DIR]`.
// The faults fixture as a stdio upstream, unconfined against the same server in bubblewrap (no
// network; with cgroup limits; with a network grant, which adds the in-sandbox forwarder) and,
// when --srt names a folder where `npm i @anthropic-ai/sandbox-runtime` was run, under srt.
// Start-up: spawn to the end of the first tools/list, median of N fresh starts, arms interleaved,
// twice: a first connect (no era known: the SDK's era probe runs, on a sibling process when
// unconfined, in place when sandboxed) and a later start (the era the first one learned, as the
// gateway passes it from the store: no probe). CPU per call: N sequential echo calls over one
// connection per arm, in --rounds rounds interleaved across arms (median); Carte's CPU
// (process.cpuUsage) and the upstream tree's (every process below the spawned one, from /proc,
// 10 ms ticks) divided by N. Prints markdown. bench/sandbox/micro.ts measures the parts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpstreamPool, type KnownEra, type UpstreamTarget } from '../../src/upstream/index.js';
import type { UpstreamConnection } from '../../src/upstream/index.js';
import { builtinDenyRead } from '../../src/config/validate/resolve-sandbox.js';
import { flag, numberFlag } from '../core/paths.js';
import { cpuTimeMs, descendantsOf } from '../load/proc-info.js';

const RUNS = numberFlag('runs', 9);
const CALLS = numberFlag('calls', 2000);
const ROUNDS = numberFlag('rounds', 3);
const SRT = flag('srt');
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
  ['bwrap + network grant', { ...plain, sandbox: { ...base, network: ['localhost:9'] } }],
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

async function round(conn: UpstreamConnection): Promise<{ carte: number; upstream: number }> {
  const up0 = treeCpu(conn.pid!);
  const c0 = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await conn.callTool('echo', { text: `n${i}` }, { timeoutMs: 10_000 });
  const c = process.cpuUsage(c0);
  const up = treeCpu(conn.pid!) - up0;
  return { carte: (c.user + c.system) / 1000 / CALLS, upstream: up / CALLS };
}

/** CPU per call of the non-srt arms: one connection each, rounds interleaved across arms. */
async function cpuPerCall(): Promise<{ carte: number; upstream: number }[]> {
  const pool = new UpstreamPool();
  const conns: (UpstreamConnection | null)[] = [];
  for (const [a, [name, target]] of arms.entries()) {
    if (name.startsWith('srt')) {
      conns.push(null);
      continue;
    }
    const conn = await pool.connect(`a${a}`, target, { timeoutMs: 30_000, logger });
    for (let i = 0; i < 200; i++) await conn.callTool('echo', { text: 'warm' }, { timeoutMs: 10_000 });
    conns.push(conn);
  }
  const rounds = conns.map((): { carte: number; upstream: number }[] => []);
  for (let r = 0; r < ROUNDS; r++)
    for (const [a, conn] of conns.entries()) if (conn) rounds[a]!.push(await round(conn));
  await pool.closeAll();
  return rounds.map((rs) => ({
    carte: rs.length ? median(rs.map((x) => x.carte)) : Number.NaN,
    upstream: rs.length ? median(rs.map((x) => x.upstream)) : Number.NaN,
  }));
}

console.log(
  `| arm | first connect p50 (ms) | later start p50 (ms) | Carte CPU/call (ms) | upstream CPU/call (ms) |`,
);
console.log('|---|---:|---:|---:|---:|');
const starts = await startups();
const cpu = await cpuPerCall();
for (const [a, [name]] of arms.entries()) {
  const f = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(3));
  const s = starts[a]!;
  console.log(
    `| ${name} | ${s.first.toFixed(0)} | ${s.later.toFixed(0)} | ${f(cpu[a]!.carte)} | ${f(cpu[a]!.upstream)} |`,
  );
}
rmSync(work, { recursive: true, force: true });
