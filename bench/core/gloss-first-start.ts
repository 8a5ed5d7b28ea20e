// A data dir's first start builds the gloss files (docs/search-languages.md, "Memory and first-query time"):
// `carte sync` on an empty config, with a cache dir without `dictionaries/`, runs exactly that
// (prepareSearches, then prepareGlossFiles) and exits when the files are built. Sampled every
// SAMPLE_MS: the summed RSS of the process and all its descendants (the child builders); reported:
// the peak of that sum, the wall time to exit and the files built. Linux only (/proc).
// `npx tsx bench/core/gloss-first-start.ts [--runs 3]` after `npm run build`.
import { spawn } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryOf, descendantsOf } from '../load/proc-info.js';
import { BIN, cleanEnv, numberFlag, requireBuild, tempDir } from './paths.js';
import { median } from './stats.js';

/** How often RSS is read, ms: a builder lives 1.5..3 s, and its peak lasts hundreds of ms. */
const SAMPLE_MS = 20;

interface FirstStart {
  ms: number;
  peakSumMiB: number;
  /** Most builder processes seen alive at once (a child builder and its `lt-print` count two). */
  maxBuilders: number;
  /** Each child builder's life, ms (from first to last sample that saw it), by module. */
  builders: Record<string, number>;
  files: string[];
}

/** The summed RSS, MiB, of `pid` and its descendants, and how many descendants there are. */
function treeRss(pid: number): { sum: number; children: { pid: number; cmd: string }[] } {
  const children = descendantsOf(pid);
  const sum = [pid, ...children.map((c) => c.pid)]
    .map((p) => memoryOf(p).rssMiB)
    .filter((r) => !Number.isNaN(r));
  return { sum: sum.reduce((a, b) => a + b, 0), children };
}

/** The builder module a child's command line runs (`cedict`, `edict-file`, `apertium-job`), if any. */
const builderOf = (cmd: string): string | undefined =>
  cmd.includes('--eval') ? /\/(\w[\w-]*)\.js\b/.exec(cmd)?.[1] : undefined;

function firstStartOnce(): Promise<FirstStart> {
  const { dir, cleanup } = tempDir('carte-gloss-first-');
  const config = join(dir, 'carte.json');
  writeFileSync(config, JSON.stringify({ mcpServers: {} }));
  const cache = join(dir, 'cache');
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(
      process.execPath,
      [BIN, 'sync', '--config', config, '--data-dir', join(dir, 'data')],
      {
        env: cleanEnv({ CARTE_CACHE_DIR: cache }),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    let peakSumMiB = 0;
    let maxBuilders = 0;
    const seen = new Map<string, [number, number]>();
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setInterval(() => {
      if (child.pid === undefined) return;
      const { sum, children } = treeRss(child.pid);
      peakSumMiB = Math.max(peakSumMiB, sum);
      maxBuilders = Math.max(maxBuilders, children.length);
      const now = performance.now();
      for (const c of children) {
        const name = builderOf(c.cmd);
        if (name) seen.set(name, [seen.get(name)?.[0] ?? now, now]);
      }
    }, SAMPLE_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearInterval(timer);
      const ms = performance.now() - start;
      const built = join(cache, 'dictionaries');
      let files: string[] = [];
      try {
        files = readdirSync(built).map(
          (f) => `${f} (${(statSync(join(built, f)).size / 1e6).toFixed(1)} MB)`,
        );
      } catch {
        // none built
      }
      cleanup();
      const builders = Object.fromEntries([...seen].map(([name, [from, to]]) => [name, to - from]));
      if (code !== 0) reject(new Error(`carte sync exited with ${code}: ${stderr.slice(-500)}`));
      else resolve({ ms, peakSumMiB, maxBuilders, builders, files });
    });
  });
}

async function main(): Promise<void> {
  const stale = requireBuild();
  if (stale) console.error(`warning: ${stale}`);
  const runs: FirstStart[] = [];
  for (let i = 0; i < numberFlag('runs', 3); i++) {
    const run = await firstStartOnce();
    runs.push(run);
    console.log(
      `run ${i + 1}: ${Math.round(run.ms)} ms, peak summed RSS ${run.peakSumMiB.toFixed(0)} MiB, ` +
        `at most ${run.maxBuilders} children at once; builders ` +
        Object.entries(run.builders)
          .map(([name, t]) => `${name} ${Math.round(t)} ms`)
          .join(', ') +
        `; ${run.files.join(', ')}`,
    );
  }
  const peaks = runs.map((r) => r.peakSumMiB);
  console.log(
    `median: ${Math.round(median(runs.map((r) => r.ms)))} ms to build every gloss file, ` +
      `peak summed RSS ${median(peaks).toFixed(0)} MiB (max ${Math.max(...peaks).toFixed(0)})`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
