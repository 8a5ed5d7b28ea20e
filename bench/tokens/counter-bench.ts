// Token counter bench: `npx tsx bench/tokens/counter-bench.ts [--data DIR] [--runs N] [--rounds N]`.
// Carte's compact counter (src/gateway/menu/budget-tokens.ts) against gpt-tokenizer's own
// countTokens, the code it replaced (issue 28 item 5). Load: each encoding loaded in a fresh
// process per run (so nothing is cached), its time and what it adds to the live heap + buffers
// and to RSS after a GC. Speed: both count the same texts (every big-catalog tool's listing entry)
// in one process, in alternating rounds, after a warm-up. Prints markdown.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ENCODINGS, loadTokenizer, type Encoding } from '../../src/gateway/index.js';
import { benchDataDir, loadBigCatalog } from '../core/bench-data.js';
import { numberFlag } from '../core/paths.js';
import { machine, machineLine } from '../core/report.js';

const ARMS = ['compact', 'gpt-tokenizer'] as const;
type Arm = (typeof ARMS)[number];
type Count = (text: string) => number;
const MiB = 2 ** 20;
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

async function loadArm(arm: Arm, encoding: Encoding): Promise<Count> {
  if (arm === 'compact') {
    const tokenizer = await loadTokenizer(encoding);
    return (text) => tokenizer.count(text);
  }
  const api = await (encoding === 'o200k_base'
    ? import('gpt-tokenizer/encoding/o200k_base')
    : import('gpt-tokenizer/encoding/cl100k_base'));
  return (text) => api.countTokens(text, PLAIN_TEXT);
}

interface LoadSample {
  loadMs: number;
  liveAddedMiB: number;
  rssAddedMiB: number;
}

async function child(arm: Arm, encoding: Encoding): Promise<LoadSample> {
  const gc = globalThis.gc ?? (() => undefined);
  gc();
  const before = process.memoryUsage();
  const start = performance.now();
  const count = await loadArm(arm, encoding);
  count('warm up: one count'); // gpt-tokenizer builds its tables on import, the compact one on load
  const loadMs = performance.now() - start;
  gc();
  const after = process.memoryUsage();
  return {
    loadMs,
    liveAddedMiB: (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / MiB,
    rssAddedMiB: (after.rss - before.rss) / MiB,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cell = (xs: number[], digits = 0) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}..${Math.max(...xs).toFixed(digits)})`;

function loadTable(runs: number): void {
  console.log(`\nLoad, ${runs} fresh processes per arm and encoding; median (min..max)\n`);
  console.log(
    '| encoding | arm | load + first count, ms | live heap + buffers added, MiB | RSS added, MiB |',
  );
  console.log('|---|---|---:|---:|---:|');
  for (const encoding of ENCODINGS) {
    const samples = new Map<Arm, LoadSample[]>(ARMS.map((a) => [a, []]));
    for (let r = 0; r < runs; r++) {
      for (const arm of ARMS) {
        const args = [
          ...process.execArgv,
          '--expose-gc',
          fileURLToPath(import.meta.url),
          '--child',
          arm,
          encoding,
        ];
        const out = spawnSync(process.execPath, args, { encoding: 'utf8' });
        if (out.status !== 0) throw new Error(`run of ${arm} ${encoding} failed: ${out.stderr}`);
        samples.get(arm)!.push(JSON.parse(out.stdout.trim().split('\n').pop()!) as LoadSample);
      }
    }
    for (const [arm, list] of samples) {
      const col = (f: (s: LoadSample) => number, d = 0) => cell(list.map(f), d);
      console.log(
        `| ${encoding} | ${arm} | ${col((s) => s.loadMs)} | ${col((s) => s.liveAddedMiB, 1)} | ${col((s) => s.rssAddedMiB, 1)} |`,
      );
    }
  }
}

async function speedTable(rounds: number): Promise<void> {
  const texts = loadBigCatalog(benchDataDir()).map((t) =>
    JSON.stringify({ name: t.name, description: t.description ?? undefined, inputSchema: t.inputSchema }),
  );
  const chars = texts.reduce((n, t) => n + t.length, 0);
  console.log(
    `\nSpeed: ${texts.length} listing entries (${(chars / 1e6).toFixed(1)} M characters), ${rounds} alternating rounds after a warm-up; median (min..max)\n`,
  );
  console.log('| encoding | arm | ms per pass | tokens |');
  console.log('|---|---|---:|---:|');
  for (const encoding of ENCODINGS) {
    const counts = new Map<Arm, Count>();
    for (const arm of ARMS) counts.set(arm, await loadArm(arm, encoding));
    const times = new Map<Arm, number[]>(ARMS.map((a) => [a, []]));
    const totals = new Map<Arm, number>();
    for (let r = -1; r < rounds; r++) {
      for (const arm of r % 2 === 0 ? ARMS : [...ARMS].reverse()) {
        const count = counts.get(arm)!;
        const start = performance.now();
        let total = 0;
        for (const text of texts) total += count(text);
        if (r >= 0) times.get(arm)!.push(performance.now() - start);
        totals.set(arm, total);
      }
    }
    for (const arm of ARMS)
      console.log(`| ${encoding} | ${arm} | ${cell(times.get(arm)!)} | ${totals.get(arm)} |`);
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') {
    console.log(JSON.stringify(await child(process.argv[3] as Arm, process.argv[4] as Encoding)));
    return;
  }
  console.log(machineLine(machine()));
  loadTable(numberFlag('runs', 3));
  await speedTable(numberFlag('rounds', 5));
}

await main();
