// Carte's CPU per inner call of run_code over call_tool's (issue 43 §6: target 0.2 ms):
// `npx tsx bench/tokens/code-cpu.ts [--rounds N] [--calls N] [--against DIR]...`. One gateway on the
// demo servers; rounds alternate call_tool step by step and one run_code making the same calls,
// and the figure is the median over rounds of (run_code CPU - call_tool CPU) / calls, with a
// bootstrap interval: the main thread's CPU (the upstreams are children), after a forced GC. With --against DIR (a copy of an older `src/`,
// inside this checkout so it finds node_modules; may be repeated), a gateway built from each runs
// the same arms interleaved with these: before and after in one run, on the same machine load.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as here from '../../src/gateway/index.js';
import { QUIET } from '../core/logger.js';
import { tempDir } from '../core/paths.js';
import { syncDemo } from './demo-catalog.js';

type GatewayModule = typeof here;
type Arm = { name: string; gateway: here.Gateway; store: { close(): Promise<void> } };

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '40' },
    calls: { type: 'string', default: '200' },
    against: { type: 'string', multiple: true },
  },
});
const ROUNDS = Number(values.rounds);
const N = Number(values.calls);
const ARGS = { message: 'x' };
const LOOP = `for (let i = 0; i < ${N}; i++) await call('everything/echo', { message: 'x' })`;

/** A full collection before each measured arm, so no arm inherits another's garbage. */
v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function open(mod: GatewayModule, name: string, dataDir: string, servers: unknown): Promise<Arm> {
  const store = await mod.openStore(join(dataDir, `carte-${name}.db`));
  const gateway = await mod.Gateway.open({ servers: servers as here.GatewayServer[], store, logger: QUIET });
  await gateway.sync(mod.LOCAL_CALLER, { server: 'everything' });
  return { name, gateway, store };
}

/**
 * CPU of the main thread only (where Carte's code and the interpreter run), in ms: not the
 * threads of the GC and libuv, which other work on the machine also wakes. Process CPU beside it.
 */
async function cpuOf(fn: () => Promise<unknown>): Promise<{ thread: number; process: number }> {
  gc();
  const t = process.threadCpuUsage();
  const p = process.cpuUsage();
  await fn();
  const dt = process.threadCpuUsage(t);
  const dp = process.cpuUsage(p);
  return { thread: (dt.user + dt.system) / 1000, process: (dp.user + dp.system) / 1000 };
}

type Round = { direct: number; script: number; start: number; overProcess: number };

/**
 * One round of an arm: CPU per call of call_tool, of run_code, and an empty run's CPU spread over
 * N calls. Odd rounds run run_code first, so a drift in the machine's load falls on both sides.
 */
async function round(arm: Arm, index: number): Promise<Round> {
  const me = here.LOCAL_CALLER;
  const viaTool = () =>
    cpuOf(async () => {
      for (let i = 0; i < N; i++) await arm.gateway.callTool(me, 'everything/echo', ARGS);
    });
  const viaScript = () => cpuOf(() => arm.gateway.runCode(me, LOOP, { limits: { maxCalls: N } }));
  let direct, script;
  if (index % 2 === 0) {
    direct = await viaTool();
    script = await viaScript();
  } else {
    script = await viaScript();
    direct = await viaTool();
  }
  const start = await cpuOf(() => arm.gateway.runCode(me, 'return 1'));
  return {
    direct: direct.thread / N,
    script: script.thread / N,
    start: start.thread / N,
    overProcess: (script.process - direct.process) / N,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** The 95 % bootstrap interval of the median of `xs` (10,000 resamples, a fixed seed). */
function bootstrap(xs: number[]): [number, number] {
  let seed = 43;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const medians: number[] = [];
  for (let b = 0; b < 10_000; b++) medians.push(median(xs.map(() => xs[Math.floor(rand() * xs.length)]!)));
  medians.sort((a, b) => a - b);
  return [medians[249]!, medians[9_749]!];
}

async function main(): Promise<void> {
  const temp = tempDir('carte-code-cpu-');
  const { dataDir, servers } = await syncDemo(temp.dir);
  const arms = [await open(here, 'this', dataDir, servers)];
  for (const dir of values.against ?? []) {
    const url = pathToFileURL(join(resolve(dir), 'gateway', 'index.ts')).href;
    arms.unshift(await open((await import(url)) as GatewayModule, dir, dataDir, servers));
  }
  try {
    for (const arm of arms) for (let i = 0; i < 2; i++) await round(arm, i); // warm: JIT, the WebAssembly compile
    const per = new Map(arms.map((a) => [a.name, [] as Round[]]));
    for (let r = 0; r < ROUNDS; r++) for (const arm of arms) per.get(arm.name)!.push(await round(arm, r));
    console.log(
      '| arm | call_tool ms/call | inside run_code ms/call | over call_tool, median of paired rounds (95 % interval) | the same, an empty run taken out | process CPU, over |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    const f = (x: number) => x.toFixed(3);
    for (const [name, rs] of per) {
      const over = rs.map((r) => r.script - r.direct);
      const calls = rs.map((r) => r.script - r.direct - r.start);
      const [lo, hi] = bootstrap(over);
      const [clo, chi] = bootstrap(calls);
      const cells = [
        name,
        f(median(rs.map((r) => r.direct))),
        f(median(rs.map((r) => r.script))),
        `${f(median(over))} (${f(lo)}-${f(hi)})`,
        `${f(median(calls))} (${f(clo)}-${f(chi)})`,
        f(median(rs.map((r) => r.overProcess))),
      ];
      console.log(`| ${cells.join(' | ')} |`);
    }
    console.log(
      `\n(${ROUNDS} rounds of ${N} everything/echo calls per arm, interleaved, run_code first in odd rounds; main-thread CPU after a forced GC; medians of per-round differences)`,
    );
  } finally {
    for (const arm of arms) {
      await arm.gateway.close();
      await arm.store.close();
    }
    temp.cleanup();
  }
}

await main();
