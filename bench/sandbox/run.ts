// Sandbox bench (issue 42): `npx tsx bench/sandbox/run.ts [--runs N] [--calls N] [--srt DIR]`.
// The faults fixture as a stdio upstream, unconfined against the same server in bubblewrap (no
// network; with cgroup limits; with a network grant, which adds the in-sandbox forwarder) and,
// when --srt names a folder where `npm i @anthropic-ai/sandbox-runtime` was run, under srt.
// Start-up: spawn to the end of the first tools/list, median of N fresh starts. CPU per call:
// N sequential echo calls over one connection; Carte's CPU (process.cpuUsage) and the upstream
// tree's (every process below the spawned one, from /proc) divided by N. Prints markdown.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpstreamPool, type UpstreamTarget } from '../../src/upstream/index.js';
import { builtinDenyRead } from '../../src/config/validate/resolve-sandbox.js';
import { flag, numberFlag } from '../core/paths.js';
import { cpuTimeMs, descendantsOf } from '../load/proc-info.js';

const RUNS = numberFlag('runs', 10);
const CALLS = numberFlag('calls', 2000);
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

async function startOnce(target: UpstreamTarget): Promise<number> {
  const pool = new UpstreamPool();
  const t0 = performance.now();
  const conn = await pool.connect('bench', target, { timeoutMs: 30_000, logger });
  await conn.listTools(30_000);
  const ms = performance.now() - t0;
  await pool.closeAll();
  return ms;
}

/** Start-up of every arm, interleaved run by run so a busy machine weighs on each alike. */
async function startups(): Promise<number[]> {
  const times = arms.map((): number[] => []);
  for (let i = 0; i < RUNS; i++)
    for (const [a, [, target]] of arms.entries()) times[a]!.push(await startOnce(target));
  return times.map(median);
}

async function cpuPerCall(target: UpstreamTarget): Promise<{ carte: number; upstream: number }> {
  const pool = new UpstreamPool();
  const conn = await pool.connect('bench', target, { timeoutMs: 30_000, logger });
  for (let i = 0; i < 200; i++) await conn.callTool('echo', { text: 'warm' }, { timeoutMs: 10_000 });
  const up0 = treeCpu(conn.pid!);
  const c0 = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await conn.callTool('echo', { text: `n${i}` }, { timeoutMs: 10_000 });
  const c = process.cpuUsage(c0);
  const up = treeCpu(conn.pid!) - up0;
  await pool.closeAll();
  return { carte: (c.user + c.system) / 1000 / CALLS, upstream: up / CALLS };
}

console.log(`| arm | start-up p50 (ms, ${RUNS} starts) | Carte CPU/call (ms) | upstream CPU/call (ms) |`);
console.log('|---|---:|---:|---:|');
const starts = await startups();
for (const [a, [name, target]] of arms.entries()) {
  const start = starts[a]!;
  const cpu = name.startsWith('srt') ? null : await cpuPerCall(target);
  const f = (x: number) => x.toFixed(3);
  console.log(
    `| ${name} | ${start.toFixed(0)} | ${cpu ? f(cpu.carte) : '-'} | ${cpu ? f(cpu.upstream) : '-'} |`,
  );
}
rmSync(work, { recursive: true, force: true });
