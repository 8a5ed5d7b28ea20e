// Retrieval-quality bench: `npx tsx bench/quality/run.ts [--data DIR] [--systems a,b] [--sets x,y] [--ablations]
// [--gloss-files DIR]` (dictionaries read from gloss files kept in DIR, as `carte` does; default: the user's cache dir,
// as `carte`'s; CARTE_GLOSS_FILES=off parses them in memory, without Apertium's Spanish list).
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { categoryReport } from './categories.js';
import { requireBenchDir } from './data.js';
import { BuildCache, evaluate, type Row } from './evaluate.js';
import { decisionTable, jsonReport, markdownTable } from './report.js';
import { loadSets } from './sets.js';
import { ABLATION_SYSTEMS, MAIN_SYSTEMS } from './systems.js';
import { resolveCacheDir } from '../../src/config/index.js';
import { prepareGlossFiles, useGlossFiles } from '../../src/search/index.js';
import { runNodeJob, runNodeJobSync } from '../../src/upstream/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const dir = requireBenchDir(resolve(root, flag('data') ?? '../shared/bench'));
  // What `carte` reads by default (src/cli/shared/app.ts), so the figures are the ones users get.
  const place = { env: process.env, platform: process.platform, home: homedir() };
  const glossFiles =
    process.env.CARTE_GLOSS_FILES === 'off'
      ? undefined
      : (flag('gloss-files') ?? join(resolveCacheDir(place), 'dictionaries'));
  // As `carte sync` does: the missing files are built first, in child processes (Apertium's only
  // there, with lt-print, and only then used; run `npm run build` first).
  if (glossFiles) {
    useGlossFiles(resolve(glossFiles), { runSync: runNodeJobSync });
    await prepareGlossFiles({ run: runNodeJob, warn: (m) => process.stderr.write(`${m}\n`) });
  }
  const pick = (list: string | undefined) => (list ? list.split(',') : undefined);
  const systemNames = pick(flag('systems'));
  const setNames = pick(flag('sets'));
  const all = process.argv.includes('--ablations') ? [...MAIN_SYSTEMS, ...ABLATION_SYSTEMS] : MAIN_SYSTEMS;
  const systems = all.filter((s) => !systemNames || systemNames.includes(s.name));
  const sets = loadSets(dir).filter((s) => !setNames || setNames.some((n) => s.name.startsWith(n)));
  const cache = new BuildCache();
  const rows: Row[] = [];
  for (const set of sets) {
    for (const system of systems) {
      // The exact-name guarantee does not depend on the ablated features; checking it is slow for hybrids.
      if (set.name.startsWith('exact') && !MAIN_SYSTEMS.includes(system)) continue;
      rows.push(await evaluate(system, set, cache));
      process.stderr.write(`done ${set.name} / ${system.name}\n`);
    }
  }
  console.log(markdownTable(rows));
  const decisions = decisionTable(rows);
  if (decisions) console.log(`\nDecision score (docs/search.md):\n\n${decisions}`);
  const out = join(root, 'bench/out');
  mkdirSync(out, { recursive: true });
  const notes = Object.fromEntries(sets.map((s) => [s.name, s.note]));
  writeFileSync(
    join(out, 'quality.json'),
    jsonReport(rows, { date: new Date().toISOString(), data: dir, notes }),
  );
  console.log(`\nwrote ${join(out, 'quality.json')}`);
  // Automatic categories against hand labels (docs/menu.md); alone: bench/quality/categories.ts.
  if (!setNames) console.log(`\n${categoryReport(dir)}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
