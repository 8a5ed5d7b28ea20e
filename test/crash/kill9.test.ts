import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/index.js';
import { FIXTURES, ROOT, tempDir } from '../e2e/helpers.js';
import { killAll, runSearch, type Paths } from './carte-runs.js';
import { killLoop, readerLoop } from './kill-loop.js';
import { raceFreshOpens } from './fresh-store-race.js';
import { auditKillLoop } from './audit-calls.js';

// Crash safety of the store: a real `carte sync` (the built CLI: run `npm run build` first)
// SIGKILLed at seeded random moments, the store checked after every kill. Slow: spawns processes.
// CARTE_CRASH_KILLS sets the number of kills (default 25; a soak run uses 300), CARTE_CRASH_SEED
// the seed (a failure names the seed and run to replay). The audit half kills a process making
// tool calls through the AuditLog a third as often (CARTE_CRASH_KILLS / 3, at least 3).
const KILLS = Number(process.env.CARTE_CRASH_KILLS ?? 25);
const SEED = Number(process.env.CARTE_CRASH_SEED ?? 20_260_728);
const TIMEOUT = 120_000 + KILLS * 4_000;
const SERVER = 'versioned';

beforeAll(async () => {
  // The checks open the store from src/, the CLI runs from dist/: a newer src schema would
  // migrate the file under the CLI's feet ("newer than this Carte's"), so refuse a stale build.
  const dist = (await import(pathToFileURL(join(ROOT, 'dist', 'store', 'index.js')).href)) as {
    SCHEMA_VERSION: number;
  };
  expect(dist.SCHEMA_VERSION, 'dist/ is stale: run `npm run build`').toBe(SCHEMA_VERSION);
});

afterAll(() => killAll());

/** A temp folder with a config naming crash-versioned.mjs, its version file and its log. */
function setup(prefix: string) {
  const tmp = tempDir(prefix);
  const versionFile = join(tmp.dir, 'version');
  const logFile = join(tmp.dir, 'fixture.log');
  const paths: Paths = { config: join(tmp.dir, 'carte.yaml'), dataDir: join(tmp.dir, 'data') };
  writeFileSync(versionFile, 'A');
  writeFileSync(logFile, '');
  writeFileSync(
    paths.config,
    [
      'servers:',
      `  ${SERVER}:`,
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(join(FIXTURES, 'crash-versioned.mjs'))}]`,
      `    env: { CATALOG_VERSION_FILE: ${JSON.stringify(versionFile)}, CATALOG_LOG_FILE: ${JSON.stringify(logFile)} }`,
      '',
    ].join('\n'),
  );
  const loop = { paths, dbPath: join(paths.dataDir, 'carte.db'), serverId: SERVER, versionFile, logFile };
  return { tmp, loop };
}

describe('carte sync killed with SIGKILL', () => {
  it(
    'leaves a sound store holding exactly the old or the new catalog, with a matching tool_count',
    async () => {
      const { tmp, loop } = setup('carte-kill9-');
      try {
        const report = await killLoop({ ...loop, kills: KILLS, seed: SEED });
        console.log(`kill9: ${JSON.stringify(report)}`);
        expect(report.kills).toBe(KILLS);
        // The aim worked: some kills kept the old catalog and some came after the new one landed.
        expect(Object.keys(report.outcomes).some((k) => k.endsWith('killed:kept'))).toBe(true);
      } finally {
        tmp.cleanup();
      }
    },
    TIMEOUT,
  );

  it(
    'never shows a concurrent `carte search` an error or a mix of versions',
    async () => {
      const { tmp, loop } = setup('carte-kill9-reader-');
      try {
        // The store exists before the reader starts (a race on a fresh store is the test below).
        expect((await runSearch(loop.paths, ['warm-up'])).code).toBe(0);
        let done = false;
        const reader = readerLoop(loop.paths, () => done);
        const report = await killLoop({ ...loop, kills: Math.ceil(KILLS / 3), seed: SEED + 1 }).finally(
          () => (done = true),
        );
        const { runs, failures } = await reader;
        console.log(`kill9 with reader: ${JSON.stringify({ ...report, searches: runs })}`);
        expect(failures).toEqual([]);
        expect(runs).toBeGreaterThan(0);
      } finally {
        tmp.cleanup();
      }
    },
    TIMEOUT,
  );
});

describe('tool calls killed with SIGKILL', () => {
  it(
    'leave an audit row, finished ok, for every call whose result reached the caller',
    async () => {
      const tmp = tempDir('carte-kill9-audit-');
      try {
        const kills = Math.max(3, Math.ceil(KILLS / 3));
        const report = await auditKillLoop({ dbPath: join(tmp.dir, 'carte.db'), kills, seed: SEED + 2 });
        console.log(`kill9 audit: ${JSON.stringify(report)}`);
        expect(report.runs).toBe(kills);
        expect(report.acked).toBeGreaterThan(0); // the kills landed while calls were being made
      } finally {
        tmp.cleanup();
      }
    },
    TIMEOUT,
  );
});

describe('two processes opening a fresh store at once', () => {
  // Was a bug: user_version was read outside the migration's write transaction, so two new
  // processes both ran migration 1. sqlite.ts now migrates inside BEGIN IMMEDIATE.
  it('all succeed', async () => {
    const { tmp } = setup('carte-fresh-race-');
    try {
      mkdirSync(join(tmp.dir, 'stores'));
      const failures = await raceFreshOpens({ dir: join(tmp.dir, 'stores'), processes: 6, rounds: 15 });
      expect(failures).toEqual([]);
    } finally {
      tmp.cleanup();
    }
  }, 60_000);
});
