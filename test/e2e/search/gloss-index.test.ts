// The index and the gloss files (docs/search.md, "Other languages"): a build waits for the gloss
// files under way, so a first start builds the index once; an index built before a gloss file (by a
// synchronous search) is built again under the new translator id rather than keep the old glosses.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_CALLER } from '../../../src/gateway/index.js';
import {
  APERTIUM_BIDIX,
  APERTIUM_DIR,
  cedictGlossFilePath,
  edictGlossFilePath,
  RANKER_DEFAULTS,
} from '../../../src/search/index.js';
import { dataFile, hasSystem, program } from '../../system-needs.js';
import { fixture, harness, memoryLogger, tempDir } from '../helpers.js';

// The child job spawns lt-print on the installed bidix (.ci/run installs both); it runs the built
// dist/ (`npm test` builds first).
const ready = hasSystem(
  import.meta.url,
  dataFile(join(APERTIUM_DIR, APERTIUM_BIDIX), 'apertium-eng-spa'),
  program('lt-print', 'lttoolbox-dev'),
);

describe.skipIf(!ready)('the index and the gloss files (slow)', () => {
  const { dir, cleanup } = tempDir('carte-gloss-index-');
  afterAll(cleanup);
  const servers = [fixture('pages', 'paginated.mjs', { env: { TOOL_COUNT: '1000', PAGE_SIZE: '500' } })];
  const builds = (logger: { lines: string[] }) =>
    logger.lines.filter((l) => l.includes('search index: 1000 tools'));

  /** A gloss dir where only Apertium's file is left to build (English tools never read the others). */
  function glossDir(name: string): string {
    const cache = join(dir, name);
    mkdirSync(cache, { recursive: true });
    for (const path of [cedictGlossFilePath(cache), edictGlossFilePath(cache)])
      if (path) writeFileSync(path, '');
    return cache;
  }

  /** The next start on `data` reads the one snapshot stored, built with every gloss file. */
  async function readsItsSnapshot(data: string, cache: string): Promise<void> {
    const logger = memoryLogger();
    const second = await harness(servers, data, { glossFiles: cache, logger });
    try {
      await second.gateway.prepareSearch(LOCAL_CALLER);
      expect(builds(logger)).toEqual([expect.stringMatching(/read from its snapshot in \d+ ms$/)]);
      expect(await second.store.snapshots.keys()).toHaveLength(1);
    } finally {
      await second.close();
    }
  }

  it('waits for the gloss files under way and is built once, then read from its snapshot', async () => {
    const cache = glossDir('first-start');
    const data = join(dir, 'first-start-data');
    const logger = memoryLogger();
    const first = await harness(servers, data, { glossFiles: cache, logger });
    try {
      await first.gateway.sync(LOCAL_CALLER);
      await first.gateway.prepareSearch(LOCAL_CALLER); // builds Apertium's file in a child process first
      expect(RANKER_DEFAULTS.translator.id).toContain('apertium(spa)');
      expect(builds(logger)).toEqual([expect.stringMatching(/built, snapshot stored in \d+ ms$/)]);
      await first.gateway.prepareSearches(LOCAL_CALLER);
      expect(builds(logger)).toHaveLength(1);
      expect(await first.store.snapshots.keys()).toHaveLength(1);
    } finally {
      await first.close();
    }

    await readsItsSnapshot(data, cache);
  });

  it('built before a gloss file by a synchronous search, is built again under the new id, then read from that snapshot', async () => {
    const cache = glossDir('built-before');
    const data = join(dir, 'built-before-data');
    const logger = memoryLogger();
    const first = await harness(servers, data, { glossFiles: cache, logger });
    try {
      await first.gateway.sync(LOCAL_CALLER);
      first.gateway.searchTools(LOCAL_CALLER, 'page'); // the CLI's search: it never waits for a build
      const before = RANKER_DEFAULTS.translator.id;
      expect(before).not.toContain('apertium');

      await first.gateway.prepareSearches(LOCAL_CALLER); // builds Apertium's file in a child process
      expect(RANKER_DEFAULTS.translator.id).toBe(
        before === 'none' ? 'apertium(spa)' : `${before}+apertium(spa)`,
      );
      expect(await first.store.snapshots.keys()).toHaveLength(1); // the synchronous build stores none
      expect(builds(logger)).toEqual([expect.stringMatching(/built, snapshot stored in \d+ ms$/)]);
    } finally {
      await first.close();
    }

    // The next start (the file there from the start) reads the snapshot of Apertium's glosses.
    await readsItsSnapshot(data, cache);
  });
});
