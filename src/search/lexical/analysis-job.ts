// The catalog's analysis in a child process, for a serving gateway: tokenising, stemming and
// glossing 7k tools grew its heap by about 100 MiB that V8 kept (230 against 135 MiB at rest), and
// held its event loop for the analysis' 0.3..3 s. The child writes the state as a snapshot's bytes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchDoc } from '../query/types.js';
import { compiledSearchModule, useGlossFiles } from '../text/gloss-file.js';
import { analyseCatalog } from './lexical-scorer.js';
import { RANKER_DEFAULTS } from './options.js';
import { encodeLexicalState } from './snapshot.js';

/** What the job reads from its directory's `input.json`. */
export interface AnalysisInput {
  docs: SearchDoc[];
  /** The parent's gloss-file directory (`glossFileDir()`), so both gloss alike. */
  glossDir?: string;
}

/** The job's module and export, for a JobRunner; from `src/` (vitest, tsx) node cannot run it. */
export const ANALYSIS_JOB = {
  module: compiledSearchModule(import.meta.url, 'lexical', 'analysis-job'),
  exportName: 'analyseInDir',
  runnable: !import.meta.url.endsWith('.ts'),
};

/** The job: `dir/input.json` in; `dir/state.bin` and `dir/translator` (its glosses' id) out. */
export function analyseInDir(dir: string): void {
  const input = JSON.parse(readFileSync(join(dir, 'input.json'), 'utf8')) as AnalysisInput;
  if (input.glossDir !== undefined) useGlossFiles(input.glossDir);
  const state = analyseCatalog(input.docs, RANKER_DEFAULTS);
  writeFileSync(join(dir, 'state.bin'), encodeLexicalState(state));
  writeFileSync(join(dir, 'translator'), RANKER_DEFAULTS.translator.id);
}
