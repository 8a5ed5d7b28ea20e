// The parts of a sandboxed start (issue 42): `npx tsx bench/sandbox/micro.ts [--runs N]`.
// Each command runs N times, arms interleaved, wall time from spawn to exit and, where Carte may
// create cgroup v1 groups (root here), the CPU of the whole process tree from a cpuacct group
// (bwrap's own rusage does not count the processes inside its pid namespace). Prints markdown.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { FORWARDER_SOURCE } from '../../src/upstream/sandbox/forwarder.js';
import { PERL_FORWARDER_SOURCE } from '../../src/upstream/sandbox/forwarder-perl.js';
import { numberFlag } from '../core/paths.js';

const RUNS = numberFlag('runs', 20);
const node = process.execPath;
const SERVER = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'faults.mjs');
const BWRAP = ['bwrap', '--die-with-parent', '--new-session', '--unshare-all'];
const FS = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--'];
const PROXY = { HTTP_PROXY: 'http://127.0.0.1:3128', HTTPS_PROXY: 'http://127.0.0.1:3128' };
/** One initialize and one tools/list, then end of input: the fixture answers and exits. */
const SESSION = [
  {
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '0' } },
  },
  { method: 'notifications/initialized' },
  { id: 2, method: 'tools/list', params: {} },
]
  .map((m) => `${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`)
  .join('');

/** A grant's forwarder, listening on 3128 and one granted port, then running the command. */
const NODE_FWD = [node, '-e', FORWARDER_SOURCE, '/tmp/none.sock', '3128', '[5173]'];
const PERL_FWD = ['/usr/bin/perl', '-e', PERL_FORWARDER_SOURCE, '--', '/tmp/none.sock', '3128', '[5173]'];

const arms: [string, string[], Record<string, string>][] = [
  ['/bin/true', ['/bin/true'], {}],
  ['bwrap /bin/true', [...BWRAP, ...FS, '/bin/true'], {}],
  ['node -e 0', [node, '-e', '0'], {}],
  ['bwrap node -e 0', [...BWRAP, ...FS, node, '-e', '0'], {}],
  ['node -e 0, NODE_USE_ENV_PROXY=1', [node, '-e', '0'], { ...PROXY, NODE_USE_ENV_PROXY: '1' }],
  ['faults fixture: initialize + tools/list', [node, SERVER], {}],
  ['the same in bwrap', [...BWRAP, ...FS, node, SERVER], {}],
  ['bwrap, Node forwarder, /bin/true', [...BWRAP, ...FS, ...NODE_FWD, '/bin/true'], {}],
  ['bwrap, Perl forwarder, /bin/true', [...BWRAP, ...FS, ...PERL_FWD, '/bin/true'], {}],
  ['bwrap, Node forwarder, the fixture', [...BWRAP, ...FS, ...NODE_FWD, node, SERVER], {}],
  ['bwrap, Perl forwarder, the fixture', [...BWRAP, ...FS, ...PERL_FWD, node, SERVER], {}],
];

const ROOT = '/sys/fs/cgroup/cpuacct';
let cpuacct = true;
try {
  accessSync(join(ROOT, 'cgroup.procs'), constants.W_OK);
} catch {
  cpuacct = false;
}
const top = join(ROOT, `carte-micro-${process.pid}`);
if (cpuacct) mkdirSync(top);

function runOnce(argv: string[], env: Record<string, string>, i: number): { wall: number; cpu: number } {
  const group = join(top, String(i));
  if (cpuacct) mkdirSync(group);
  const [cmd, ...args] = cpuacct
    ? ['/bin/sh', '-c', `echo $$ > ${group}/cgroup.procs && exec "$@"`, 'x', ...argv]
    : argv;
  const t0 = performance.now();
  spawnSync(cmd!, args, {
    input: SESSION,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { PATH: process.env.PATH, ...env },
  });
  const wall = performance.now() - t0;
  if (!cpuacct) return { wall, cpu: Number.NaN };
  const cpu = Number(readFileSync(join(group, 'cpuacct.usage'), 'utf8')) / 1e6;
  // bwrap's namespace takes a moment to empty after bwrap exits.
  for (let tries = 0; tries < 200; tries++) {
    try {
      rmdirSync(group);
      break;
    } catch {
      spawnSync('sleep', ['0.02']);
    }
  }
  return { wall, cpu };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const wall = arms.map((): number[] => []);
const cpu = arms.map((): number[] => []);
let n = 0;
for (let r = 0; r < RUNS; r++)
  for (const [a, [, argv, env]] of arms.entries()) {
    const m = runOnce(argv, env, n++);
    wall[a]!.push(m.wall);
    cpu[a]!.push(m.cpu);
  }
if (cpuacct) rmdirSync(top);
console.log(`| command (${RUNS} runs) | wall p50 (ms) | wall min (ms) | tree CPU p50 (ms) |`);
console.log('|---|---:|---:|---:|');
for (const [a, [name]] of arms.entries())
  console.log(
    `| ${name} | ${median(wall[a]!).toFixed(0)} | ${Math.min(...wall[a]!).toFixed(0)} | ${cpuacct ? median(cpu[a]!).toFixed(1) : '-'} |`,
  );
