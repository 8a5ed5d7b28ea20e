// The index snapshot follows the glosses it holds (docs/search.md, "Other languages"): Apertium's
// gloss file, built by the child job after the index, changes the translator's id, and the gateway
// builds the index again and stores it under the new key rather than keep the old glosses.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_CALLER } from '../../src/gateway/index.js';
import {
  cedictGlossFilePath,
  edictGlossFilePath,
  findApertium,
  RANKER_DEFAULTS,
} from '../../src/search/index.js';
import { fixture, harness, memoryLogger, tempDir } from './helpers.js';

// The child job spawns lt-print on the installed bidix (.ci/run installs both); it runs the built
// dist/ (`npm test` builds first).
const ready = findApertium() !== undefined && !spawnSync('lt-print', ['-v']).error;
if (!ready) console.warn('apertium-eng-spa or lt-print missing: the gloss-index test is skipped');

describe.skipIf(!ready)('the index and a gloss file built after it (slow)', () => {
  const { dir, cleanup } = tempDir('carte-gloss-index-');
  afterAll(cleanup);

  it('is built again under the new translator id, and read from that snapshot at the next start', async () => {
    const cache = join(dir, 'dictionaries');
    mkdirSync(cache, { recursive: true });
    // Only Apertium's file is left to build: CC-CEDICT's and EDICT's stand there (English tools
    // never read them).
    for (const path of [cedictGlossFilePath(cache), edictGlossFilePath(cache)])
      if (path) writeFileSync(path, '');
    const servers = [fixture('pages', 'paginated.mjs', { env: { TOOL_COUNT: '1000', PAGE_SIZE: '500' } })];
    const logger = memoryLogger();
    const first = await harness(servers, dir, { glossFiles: cache, logger });
    try {
      await first.gateway.sync(LOCAL_CALLER);
      await first.gateway.prepareSearch(LOCAL_CALLER);
      const before = RANKER_DEFAULTS.translator.id;
      expect(before).not.toContain('apertium');
      expect(await first.store.snapshots.keys()).toHaveLength(1);

      await first.gateway.prepareSearches(LOCAL_CALLER); // builds Apertium's file in a child process
      expect(RANKER_DEFAULTS.translator.id).toBe(
        before === 'none' ? 'apertium(spa)' : `${before}+apertium(spa)`,
      );
      expect(await first.store.snapshots.keys()).toHaveLength(2);
      const builds = () => logger.lines.filter((l) => l.includes('search index: 1000 tools'));
      expect(builds()).toEqual([
        expect.stringMatching(/built, snapshot stored in \d+ ms$/),
        expect.stringMatching(/built, snapshot stored in \d+ ms$/),
      ]);
    } finally {
      await first.close();
    }

    // The next start (the file there from the start) reads the snapshot of Apertium's glosses.
    logger.lines.length = 0;
    const second = await harness(servers, dir, { glossFiles: cache, logger });
    try {
      await second.gateway.prepareSearch(LOCAL_CALLER);
      expect(logger.lines.filter((l) => l.includes('search index: 1000 tools'))).toEqual([
        expect.stringMatching(/read from its snapshot in \d+ ms$/),
      ]);
      expect(await second.store.snapshots.keys()).toHaveLength(2);
    } finally {
      await second.close();
    }
  });
});
