// The first Japanese query's cost (issue 29): `npx tsx bench/core/japanese-first-query.ts [--runs N]`.
// Each run is a fresh process that builds the lexical index of the LiveMCPBench catalog without its
// tools described in Chinese (so no dictionary is loaded), answers an English query, then times its
// first and second Japanese queries and reads RSS, and live heap plus buffers after a forced GC. Arms, interleaved: the
// default translator (EDICT for texts with kana) with EDICT indexed in memory (`edict`, no gloss-file dir) or read
// from its gloss file (`edict-file`, built once before the runs), and `-edict` (CC-CEDICT for their kanji, before EDICT).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireBenchDir, loadJson, toSearchDoc, type BenchTool } from '../quality/data.js';
import {
  buildSearchIndex,
  CEDICT_TRANSLATOR,
  combineTranslators,
  FREEDICT_TRANSLATOR,
  RANKER_DEFAULTS,
  useGlossFiles,
  writeEdictGlossFile,
} from '../../src/search/index.js';
import { flag, numberFlag, ROOT } from './paths.js';
import { median } from './stats.js';

const ARMS = ['edict', 'edict-file', '-edict'] as const;
const QUERIES = ['ファイルの内容を読み込む', '東京の天気を調べる'];
const MiB = 2 ** 20;

interface Sample {
  firstMs: number;
  secondMs: number;
  rssBeforeMiB: number;
  rssAddedMiB: number;
  liveAddedMiB: number;
}

/** One run: the index, an English query, then the two Japanese ones. */
function child(arm: (typeof ARMS)[number], dataDir: string, glossDir: string): Sample {
  if (arm === 'edict-file') useGlossFiles(glossDir);
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const tools = loadJson<BenchTool[]>(dataDir, 'catalog-livemcpbench.json').filter(
    (t) => !/\p{Script=Han}/u.test(`${t.name} ${t.description ?? ''}`),
  );
  const translator =
    arm === '-edict'
      ? combineTranslators(CEDICT_TRANSLATOR, FREEDICT_TRANSLATOR)
      : RANKER_DEFAULTS.translator;
  const index = buildSearchIndex(
    tools.map((t) => toSearchDoc(t)),
    { translator },
  );
  index.search('read the contents of a file');
  gc();
  const before = process.memoryUsage();
  let t = performance.now();
  index.search(QUERIES[0]!);
  const firstMs = performance.now() - t;
  const rssAdded = process.memoryUsage().rss - before.rss;
  t = performance.now();
  index.search(QUERIES[1]!);
  const secondMs = performance.now() - t;
  gc();
  const after = process.memoryUsage();
  return {
    firstMs,
    secondMs,
    rssBeforeMiB: before.rss / MiB,
    rssAddedMiB: rssAdded / MiB,
    liveAddedMiB: (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / MiB,
  };
}

function main(): void {
  const dataDir = requireBenchDir(flag('data') ?? `${ROOT}/../shared/bench`);
  if (process.argv[2] === '--child') {
    const [arm, glossDir] = process.argv.slice(3) as [(typeof ARMS)[number], string];
    console.log(JSON.stringify(child(arm, dataDir, glossDir)));
    return;
  }
  const runs = numberFlag('runs', 3);
  const glossDir = mkdtempSync(join(tmpdir(), 'carte-edict-bench-'));
  writeEdictGlossFile(glossDir); // once per EDICT version, as `carte serve` does at start
  const samples = new Map<string, Sample[]>(ARMS.map((a) => [a, []]));
  try {
    for (let r = 0; r < runs; r++)
      for (const arm of ARMS) {
        const script = fileURLToPath(import.meta.url);
        const args = [...process.execArgv, '--expose-gc', script, '--child', arm, glossDir];
        const out = spawnSync(process.execPath, args, { encoding: 'utf8' });
        if (out.status !== 0) throw new Error(`run of ${arm} failed: ${out.stderr}`);
        samples.get(arm)!.push(JSON.parse(out.stdout.trim().split('\n').pop()!) as Sample);
      }
  } finally {
    rmSync(glossDir, { recursive: true, force: true });
  }
  const cell = (list: number[]): string =>
    `${median(list).toFixed(0)} (${Math.min(...list).toFixed(0)}..${Math.max(...list).toFixed(0)})`;
  console.log(
    `First Japanese query, LiveMCPBench catalog, ${runs} fresh processes per arm; median (min..max)\n`,
  );
  console.log(
    '| arm | first query ms | second ms | RSS before MiB | RSS added by it MiB | live heap + buffers added MiB |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [arm, list] of samples) {
    const col = (f: (s: Sample) => number) => cell(list.map(f));
    console.log(
      `| ${arm} | ${col((s) => s.firstMs)} | ${col((s) => s.secondMs)} | ${col((s) => s.rssBeforeMiB)} | ${col((s) => s.rssAddedMiB)} | ${col((s) => s.liveAddedMiB)} |`,
    );
  }
}

main();
