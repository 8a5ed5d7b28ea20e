// The child job that builds the Apertium gloss file (src/search/text/apertium.ts): `lt-print`
// (Debian's `lttoolbox-dev`) prints the compiled bidix, which search turns into the file. Spawning
// belongs here; the parsing is search's. Run by `runNodeJob`, so its memory goes back when it ends.
// Built-in modules a command may never need are loaded when used (process.getBuiltinModule), not at
// start: docs/benchmarks.md, "CLI start".
import { findApertium, writeApertiumGlossFile } from '../search/index.js';

/** Largest `lt-print` output read, bytes: the bidix of apertium-eng-spa 0.8.1 prints 3.5 MB. */
const MAX_OUTPUT = 64 * 1024 * 1024;

/** Print the installed bidix with `lt-print` and write its gloss file under `dir`; throws if `lt-print` fails. */
export function buildApertiumGlossFile(dir: string): void {
  const found = findApertium();
  if (!found) return;
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const run = spawnSync('lt-print', [found.file], { encoding: 'utf8', maxBuffer: MAX_OUTPUT });
  if (run.error)
    throw new Error(`lt-print could not run (apt-get install lttoolbox-dev): ${run.error.message}`);
  if (run.status !== 0) throw new Error(`lt-print exited with ${run.status}: ${run.stderr.trim()}`);
  writeApertiumGlossFile(dir, run.stdout);
}
