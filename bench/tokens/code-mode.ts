// Code-mode bench (issue 43): part of `npm run bench:tokens`, or alone `npx tsx bench/tokens/code-mode.ts`. On the demo servers (synced in
// process into a temp dir), multi-step tasks (list, filter, read, aggregate) done two ways:
// call_tool step by step, where every request and every result passes through the agent's
// context, against one run_code, where only the script and its answer do. Also Carte's CPU per
// inner call over call_tool's, and the time a run takes to start. Prints markdown.
import { join } from 'node:path';
import { Gateway, LOCAL_CALLER as ME, loadTokenizer, openStore } from '../../src/gateway/index.js';
import { QUIET } from '../core/logger.js';
import { tempDir } from '../core/paths.js';
import { CODE_TASKS, type CodeTask, type TaskContext } from './code-tasks.js';
import { syncDemo } from './demo-catalog.js';

const text = (r: Record<string, unknown>) => (r.content as { text: string }[])[0]!.text;

/** The 80 % target of issue 43, and how far the break-even sweep looks. */
const TARGET = 0.8;
const SWEEP_MAX_CALLS = 42;

interface Measured {
  calls: number;
  stepTokens: number;
  scriptTokens: number;
  answerTokens: number;
  answer: string;
}

/** One task at one size, both ways, in o200k_base tokens. */
async function measure(gateway: Gateway, ctx: TaskContext, task: CodeTask, size: number): Promise<Measured> {
  const tok = await loadTokenizer();
  await task.setup(ctx, size);
  // Step by step: each call_tool request the agent writes, and each result it reads.
  let stepTokens = 0;
  let calls = 0;
  await task.steps(async (key, args) => {
    const r = await gateway.callTool(ME, key, args);
    if (r.isError) throw new Error(`${task.name}: ${key} failed: ${text(r)}`);
    calls++;
    stepTokens += tok.count(JSON.stringify({ key, arguments: args })) + tok.count(text(r));
    return text(r);
  }, size);
  if (calls !== task.calls(size)) throw new Error(`${task.name}: ${calls} calls, not ${task.calls(size)}`);
  const code = task.script(size);
  const answer = await gateway.runCode(ME, code, { limits: { maxCalls: 500 } });
  if (answer.isError) throw new Error(`${task.name}: the script failed: ${text(answer)}`);
  const scriptTokens = tok.count(JSON.stringify({ code }));
  return { calls, stepTokens, scriptTokens, answerTokens: tok.count(text(answer)), answer: text(answer) };
}

const fewer = (m: Measured) => 1 - (m.scriptTokens + m.answerTokens) / m.stepTokens;

/** The fewest calls at which run_code saves at least `target`, by growing the task one size at a time. */
async function breakEven(
  gateway: Gateway,
  ctx: TaskContext,
  task: CodeTask,
  target: number,
): Promise<string> {
  for (let size = 1; task.calls(size) <= SWEEP_MAX_CALLS; size++) {
    const m = await measure(gateway, ctx, task, size);
    if (fewer(m) >= target) return size === 1 ? `${m.calls} or fewer` : String(m.calls);
  }
  return `over ${SWEEP_MAX_CALLS}`;
}

/** The code-mode section of the token bench, as markdown lines. */
export async function codeModeReport(): Promise<string[]> {
  const out: string[] = [];
  const temp = tempDir('carte-code-bench-');
  const { dataDir, servers } = await syncDemo(temp.dir);
  const store = await openStore(join(dataDir, 'carte.db'));
  const gateway = await Gateway.open({ servers, store, logger: QUIET });
  const ctx: TaskContext = {
    sandbox: join(dataDir, 'sandbox'),
    call: async (key, args) => {
      const r = await gateway.callTool(ME, key, args);
      if (r.isError) throw new Error(`set-up: ${key} failed: ${text(r)}`);
    },
  };
  try {
    out.push(
      '| task | calls | call_tool step by step (tokens) | one run_code (tokens: script + answer) | fewer |',
      '| --- | ---: | ---: | ---: | ---: |',
    );
    const evens: string[] = [];
    for (const task of CODE_TASKS) {
      for (const size of task.sizes) {
        const m = await measure(gateway, ctx, task, size);
        const cells = [
          task.name,
          m.calls,
          m.stepTokens,
          `${m.scriptTokens + m.answerTokens} (${m.scriptTokens} + ${m.answerTokens})`,
        ];
        out.push(`| ${cells.join(' | ')} | ${(fewer(m) * 100).toFixed(1)} % |`);
      }
      const even = await breakEven(gateway, ctx, task, 0);
      const target = await breakEven(gateway, ctx, task, TARGET);
      evens.push(`${task.name}: run_code costs less from ${even} calls, 80 % fewer from ${target}`);
    }
    out.push('', ...evens.map((e) => `- ${e}`));
    out.push('', await cpuPerCall(gateway), await startTime(gateway));
  } finally {
    await gateway.close();
    await store.close();
    temp.cleanup();
  }
  return out;
}

/** Carte's own CPU (this process: upstreams are children) per call, call_tool vs inside run_code. */
async function cpuPerCall(gateway: Gateway): Promise<string> {
  const N = 200;
  const args = { message: 'x' };
  for (let i = 0; i < 20; i++) await gateway.callTool(ME, 'everything/echo', args); // warm
  await gateway.runCode(ME, `for (let i = 0; i < 20; i++) await call('everything/echo', { message: 'x' })`);
  const per: { direct: number; script: number }[] = [];
  for (let round = 0; round < 5; round++) {
    let t = process.cpuUsage();
    for (let i = 0; i < N; i++) await gateway.callTool(ME, 'everything/echo', args);
    const direct = process.cpuUsage(t);
    t = process.cpuUsage();
    await gateway.runCode(
      ME,
      `for (let i = 0; i < ${N}; i++) await call('everything/echo', { message: 'x' })`,
      {
        limits: { maxCalls: N },
      },
    );
    const script = process.cpuUsage(t);
    const ms = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000 / N;
    per.push({ direct: ms(direct), script: ms(script) });
  }
  per.sort((a, b) => a.script - a.direct - (b.script - b.direct));
  const mid = per[Math.floor(per.length / 2)]!;
  return `Carte CPU per call (median of 5 rounds of ${N}): call_tool ${mid.direct.toFixed(3)} ms, inside run_code ${mid.script.toFixed(3)} ms: ${(mid.script - mid.direct).toFixed(3)} ms over call_tool (the run's own start included)`;
}

/**
 * A run that does nothing, start to answer, its audit row included: wall time and this process's
 * CPU. Warm: after the first run, which compiles the WebAssembly. On a loaded machine the wall
 * time is mostly waiting for a core; the CPU time is what the run costs.
 */
async function startTime(gateway: Gateway): Promise<string> {
  const t0 = performance.now();
  await gateway.runCode(ME, 'return 1');
  const first = performance.now() - t0;
  for (let i = 0; i < 5; i++) await gateway.runCode(ME, 'return 1');
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 60; i++) {
    const u = process.cpuUsage();
    const t = performance.now();
    await gateway.runCode(ME, 'return 1');
    wall.push(performance.now() - t);
    const used = process.cpuUsage(u);
    cpu.push((used.user + used.system) / 1000);
  }
  const q = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!.toFixed(1);
  return `run start (return 1, audited): first ${first.toFixed(1)} ms (compiles the WebAssembly); then wall p50 ${q(wall, 0.5)} ms, p90 ${q(wall, 0.9)} ms; CPU p50 ${q(cpu, 0.5)} ms, p90 ${q(cpu, 0.9)} ms`;
}

if (process.argv[1]?.endsWith('code-mode.ts')) console.log((await codeModeReport()).join('\n'));
