// Code-mode bench (issue 43): part of `npm run bench:tokens`, or alone `npx tsx bench/tokens/code-mode.ts`. On the demo servers (synced in
// process into a temp dir), multi-step tasks (list, filter, read, aggregate) done two ways:
// call_tool step by step, where every request and every result passes through the agent's
// context, against one run_code, where only the script and its answer do. Also Carte's CPU per
// inner call over call_tool's, and the time a run takes to start. Prints markdown.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Gateway, LOCAL_CALLER as ME, loadTokenizer, openStore } from '../../src/gateway/index.js';
import { QUIET } from '../core/logger.js';
import { tempDir } from '../core/paths.js';
import { syncDemo } from './demo-catalog.js';

const text = (r: Record<string, unknown>) => (r.content as { text: string }[])[0]!.text;

/** Writes `n` files `nI.txt` holding "value: I" and some prose, as a real file would. */
function writeFiles(sandbox: string, n: number): void {
  for (let i = 0; i < n; i++)
    writeFileSync(
      join(sandbox, `n${i}.txt`),
      `value: ${i}\n${'Some notes about this record. '.repeat(12)}\n`,
    );
}

const SCRIPT = (
  min: number,
) => `const root = (await call('filesystem/list_allowed_directories', {})).content.split('\\n').pop().trim();
const names = (await call('filesystem/list_directory', { path: root })).content.split('\\n')
  .filter((l) => l.startsWith('[FILE] n')).map((l) => l.slice(7));
let sum = 0, count = 0;
for (const name of names) {
  const v = Number(/value: (\\d+)/.exec((await call('filesystem/read_text_file', { path: root + '/' + name })).content)[1]);
  if (v >= ${min}) { sum += v; count++; }
}
return { count, sum };`;

/** The code-mode section of the token bench, as markdown lines. */
export async function codeModeReport(): Promise<string[]> {
  const out: string[] = [];
  const temp = tempDir('carte-code-bench-');
  const { dataDir, servers } = await syncDemo(temp.dir);
  const store = await openStore(join(dataDir, 'carte.db'));
  const gateway = await Gateway.open({ servers, store, logger: QUIET });
  const tok = await loadTokenizer();
  const sandbox = join(dataDir, 'sandbox');
  try {
    const rows: string[] = [];
    for (const files of [4, 10, 40, 80]) {
      const { rmSync, readdirSync } = await import('node:fs');
      for (const f of readdirSync(sandbox)) rmSync(join(sandbox, f));
      writeFiles(sandbox, files);
      // Step by step: each call_tool request the agent writes, and each result it reads.
      let stepTokens = 0;
      const step = async (key: string, args: Record<string, unknown>) => {
        const r = await gateway.callTool(ME, key, args);
        stepTokens += tok.count(JSON.stringify({ key, arguments: args })) + tok.count(text(r));
        return text(r);
      };
      const root = (await step('filesystem/list_allowed_directories', {})).split('\n').pop()!.trim();
      const names = (await step('filesystem/list_directory', { path: root }))
        .split('\n')
        .filter((l) => l.startsWith('[FILE] n'))
        .map((l) => l.slice(7));
      for (const name of names) await step('filesystem/read_text_file', { path: `${root}/${name}` });
      const code = SCRIPT(files / 2);
      const answer = await gateway.runCode(ME, code);
      const scriptTokens = tok.count(JSON.stringify({ code }));
      const answerTokens = tok.count(text(answer));
      const codeTokens = scriptTokens + answerTokens;
      const calls = names.length + 2;
      const saved = 1 - codeTokens / stepTokens;
      const cells = [files, calls, stepTokens, `${codeTokens} (${scriptTokens} + ${answerTokens})`];
      rows.push(`| ${cells.join(' | ')} | ${(saved * 100).toFixed(1)} % |`);
    }
    out.push(
      '| files | calls | call_tool step by step (tokens) | one run_code (tokens: script + answer) | fewer |',
    );
    out.push('| ---: | ---: | ---: | ---: | ---: |');
    out.push(...rows);
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
