// Carte's CPU per call over stdio with and without a smaller young generation, in one run:
// `npx tsx bench/load/semi-space.ts [--semi N] [--sessions N] [--repeats N]` (build first). Both
// arms are `carte serve` per session (the same closed loop as bench:load's stdio part), one with
// `node --max-semi-space-size=N`, in alternating segments; it prints CPU µs per call of the Carte
// processes and their RSS after the load (docs/benchmarks.md, `bench:core` (c)).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compare } from './compare.js';
import { CONFIGS, setupCarte } from './configs.js';

const { values } = parseArgs({
  options: {
    semi: { type: 'string', default: '4' },
    sessions: { type: 'string', default: '4' },
    repeats: { type: 'string', default: '3' },
  },
});
const semi = Number(values.semi);
const sessions = Number(values.sessions);
const dir = mkdtempSync(join(tmpdir(), 'carte-semi-'));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  const plain = await setupCarte(join(dir, 'plain'), 'stdio', CONFIGS.stdio());
  const small = await setupCarte(join(dir, 'small'), 'stdio', CONFIGS.stdio());
  console.log(
    `| run | default µs/call | --max-semi-space-size=${semi} µs/call | ratio | RSS MiB, small, after the load (median) |`,
  );
  console.log('| --- | --- | --- | --- | --- |');
  for (let i = 1; i <= Number(values.repeats); i++) {
    // The "direct" arm of compare() is the default Carte here: its processes count as "upstream".
    const r = await compare(
      { upstream: 'stdio', sessions, workers: 1 },
      {
        direct: { kind: 'carte', ...plain },
        carte: { kind: 'carte', ...small, nodeArgs: [`--max-semi-space-size=${semi}`] },
      },
      { durationMs: 6000, rounds: 3, warmUpMs: 3000 },
    );
    const base = (r.cpu.direct.upstream * 1000) / r.direct.calls;
    const test = (r.cpu.carte.carte * 1000) / r.carte.calls;
    const rss = r.carteRss.loaded;
    console.log(
      `| ${i} | ${base.toFixed(0)} | ${test.toFixed(0)} | ${(test / base).toFixed(2)} | ${median(rss).toFixed(0)} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
