// run_code's bridge alone (issue 43): `npx tsx bench/tokens/code-bridge.ts [--against DIR]...`.
// runScript with a host that answers every call at once, so what is measured is the interpreter
// and its bridge per call (the promise inside, JSON both ways, the jobs), no gateway and no I/O:
// CPU of a run of 2,000 calls less an empty run's, per call, median of 10 rounds after 2 warm.
// --against DIR loads a copy of an older `src/` (inside this checkout) as another arm, interleaved.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as here from '../../src/code/index.js';

type CodeModule = typeof here;
const { values } = parseArgs({ options: { against: { type: 'string', multiple: true } } });
const N = 2000;
const HOST: here.ScriptHost = { call: () => Promise.resolve('Echo: x'), search: () => Promise.resolve([]) };
const LIMITS: here.ScriptLimits = { timeoutMs: 60_000, memoryBytes: 64 * 2 ** 20, maxCalls: N };
const LOOP = `for (let i = 0; i < ${N}; i++) await call('everything/echo', { message: 'x' })`;
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

const arms: [string, CodeModule][] = [['this', here]];
for (const dir of values.against ?? [])
  arms.unshift([
    dir,
    (await import(pathToFileURL(join(resolve(dir), 'code', 'index.ts')).href)) as CodeModule,
  ]);
const per = new Map(arms.map(([name]) => [name, [] as number[]]));
for (let round = 0; round < 12; round++)
  for (const [name, mod] of arms) {
    let t = process.cpuUsage();
    await mod.runScript(LOOP, HOST, LIMITS);
    const loop = cpuMs(process.cpuUsage(t));
    t = process.cpuUsage();
    await mod.runScript('return 1', HOST, LIMITS);
    const empty = cpuMs(process.cpuUsage(t));
    if (round >= 2) per.get(name)!.push((loop - empty) / N);
  }
for (const [name, xs] of per) {
  const median = [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  console.log(`${name}: ${median.toFixed(4)} ms of CPU per call (the bridge alone, empty run taken out)`);
}
