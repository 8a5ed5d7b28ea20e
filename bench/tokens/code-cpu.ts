// Carte's CPU per inner call of run_code over call_tool's (issue 43 §6: target 0.2 ms):
// `npx tsx bench/tokens/code-cpu.ts [--rounds N] [--calls N] [--against DIR]...`. One gateway on the
// demo servers; rounds alternate call_tool step by step and one run_code making the same calls,
// and the figure is the median over rounds of (run_code CPU - call_tool CPU) / calls, this
// process only (the upstreams are children). With --against DIR (a copy of an older `src/`,
// inside this checkout so it finds node_modules; may be repeated), a gateway built from each runs
// the same arms interleaved with these: before and after in one run, on the same machine load.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as here from '../../src/gateway/index.js';
import { QUIET } from '../core/logger.js';
import { tempDir } from '../core/paths.js';
import { syncDemo } from './demo-catalog.js';

type GatewayModule = typeof here;
type Arm = { name: string; gateway: here.Gateway; store: { close(): Promise<void> } };

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '9' },
    calls: { type: 'string', default: '200' },
    against: { type: 'string', multiple: true },
  },
});
const ROUNDS = Number(values.rounds);
const N = Number(values.calls);
const ARGS = { message: 'x' };
const LOOP = `for (let i = 0; i < ${N}; i++) await call('everything/echo', { message: 'x' })`;

async function open(mod: GatewayModule, name: string, dataDir: string, servers: unknown): Promise<Arm> {
  const store = await mod.openStore(join(dataDir, `carte-${name}.db`));
  const gateway = await mod.Gateway.open({ servers: servers as here.GatewayServer[], store, logger: QUIET });
  await gateway.sync(mod.LOCAL_CALLER, { server: 'everything' });
  return { name, gateway, store };
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

type Round = { direct: number; script: number; start: number };

/** One round of an arm: CPU per call of call_tool, of run_code, and an empty run's CPU spread over N calls. */
async function round(arm: Arm): Promise<Round> {
  const me = here.LOCAL_CALLER;
  let t = process.cpuUsage();
  for (let i = 0; i < N; i++) await arm.gateway.callTool(me, 'everything/echo', ARGS);
  const direct = cpuMs(process.cpuUsage(t)) / N;
  t = process.cpuUsage();
  await arm.gateway.runCode(me, LOOP, { limits: { maxCalls: N } });
  const script = cpuMs(process.cpuUsage(t)) / N;
  t = process.cpuUsage();
  await arm.gateway.runCode(me, 'return 1');
  const start = cpuMs(process.cpuUsage(t)) / N;
  return { direct, script, start };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
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
    for (const arm of arms) for (let i = 0; i < 2; i++) await round(arm); // warm: JIT, the WebAssembly compile
    const per = new Map(arms.map((a) => [a.name, [] as Round[]]));
    for (let r = 0; r < ROUNDS; r++) for (const arm of arms) per.get(arm.name)!.push(await round(arm));
    console.log(
      `| arm | call_tool ms/call | inside run_code ms/call | over call_tool (ms) | the same, an empty run's CPU taken out (ms) |`,
    );
    console.log(`| --- | ---: | ---: | ---: | ---: |`);
    for (const [name, rs] of per) {
      const over = median(rs.map((r) => r.script - r.direct));
      const calls = median(rs.map((r) => r.script - r.direct - r.start));
      const line = [name, median(rs.map((r) => r.direct)), median(rs.map((r) => r.script)), over, calls];
      console.log(`| ${line.map((x) => (typeof x === 'number' ? x.toFixed(3) : x)).join(' | ')} |`);
    }
    console.log(`\n(${ROUNDS} rounds of ${N} everything/echo calls per arm, interleaved; medians)`);
  } finally {
    for (const arm of arms) {
      await arm.gateway.close();
      await arm.store.close();
    }
    temp.cleanup();
  }
}

await main();
