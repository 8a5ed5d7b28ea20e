// The catalog index's analysis run in a child process (search/lexical/analysis-job.ts), for a
// serving gateway: the analysis' garbage goes with the child, and requests are answered meanwhile.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ANALYSIS_JOB,
  decodeLexicalState,
  glossFileDir,
  RANKER_DEFAULTS,
  type AnalysisInput,
  type JobRunner,
  type LexicalState,
  type SearchDoc,
} from '../../search/index.js';

/**
 * Analyses `docs` in a child process; undefined (the caller analyses them here) when node cannot
 * run the job (from src/), when it fails (warned), or when the child glossed with another
 * translator than this process would (a dictionary one of them could not open).
 */
export function analysisApart(
  run: JobRunner,
  warn: (message: string) => void,
  job: { module: string; exportName: string; runnable: boolean } = ANALYSIS_JOB,
): (docs: readonly SearchDoc[]) => Promise<LexicalState | undefined> {
  return async (docs) => {
    if (!job.runnable) return undefined;
    const dir = mkdtempSync(join(tmpdir(), 'carte-analysis-'));
    try {
      const glossDir = glossFileDir();
      const input: AnalysisInput = { docs: [...docs], ...(glossDir === undefined ? {} : { glossDir }) };
      writeFileSync(join(dir, 'input.json'), JSON.stringify(input));
      await run(job.module, job.exportName, dir);
      const theirs = readFileSync(join(dir, 'translator'), 'utf8');
      const ours = RANKER_DEFAULTS.translator.id;
      if (theirs !== ours) {
        warn(
          `the search index's analysis apart glossed with ${theirs}, this process with ${ours}: analysing here`,
        );
        return undefined;
      }
      return decodeLexicalState(readFileSync(join(dir, 'state.bin')), docs.length);
    } catch (err) {
      warn(`the search index's analysis apart failed (${(err as Error).message}): analysing here`);
      return undefined;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
