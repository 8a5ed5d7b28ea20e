// The catalog's analysis in a child process: the same state as analysing here, and a failed job
// leaves the analysis to this process. The child runs the built dist/ (`npm test` builds first).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyseCatalog, encodeLexicalState, RANKER_DEFAULTS, type SearchDoc } from '../../search/index.js';
import { runNodeJob } from '../../upstream/index.js';
import { analysisApart } from './analysis-apart.js';

const built = fileURLToPath(new URL('../../../dist/search/lexical/analysis-job.js', import.meta.url));
const job = { module: pathToFileURL(built).href, exportName: 'analyseInDir', runnable: true };

const DOCS: SearchDoc[] = Array.from({ length: 60 }, (_, i) => ({
  key: `s${i % 7}/tool_${i}`,
  server: `s${i % 7}`,
  name: `tool_${i}`,
  description: ['Read a file from disk', 'Send an email', 'Buscar archivos', 'Get the weather forecast'][
    i % 4
  ]!,
  paramNames: ['path', 'to'].slice(0, i % 3),
  ...(i % 5 === 0 ? { title: `Tool ${i}` } : {}),
  ...(i % 7 === 1 ? { serverDescription: 'Mail and files' } : {}),
}));

if (!existsSync(built))
  console.warn(`${built} is missing (run npm run build): the analysis-apart tests are skipped`);

describe.skipIf(!existsSync(built))('the index analysis apart', () => {
  it('gives the state this process would, byte for byte', async () => {
    const warnings: string[] = [];
    const state = await analysisApart(runNodeJob, (m) => warnings.push(m), job)(DOCS);
    expect(warnings).toEqual([]);
    expect(state).toBeDefined();
    expect(encodeLexicalState(state!).equals(encodeLexicalState(analyseCatalog(DOCS, RANKER_DEFAULTS)))).toBe(
      true,
    );
  });

  it('leaves the analysis here, warned, when the job fails; and from src/ it is not tried', async () => {
    const warnings: string[] = [];
    const broken = { ...job, exportName: 'noSuchExport' };
    expect(await analysisApart(runNodeJob, (m) => warnings.push(m), broken)(DOCS)).toBeUndefined();
    expect(warnings).toEqual([
      expect.stringMatching(
        /^the search index's analysis apart failed \(exited with 1: .*\): analysing here$/,
      ),
    ]);
    const ran: string[] = [];
    const fromSrc = { ...job, runnable: false };
    const run = (m: string) => (ran.push(m), Promise.resolve());
    expect(await analysisApart(run, () => undefined, fromSrc)(DOCS)).toBeUndefined();
    expect(ran).toEqual([]);
  });
});
