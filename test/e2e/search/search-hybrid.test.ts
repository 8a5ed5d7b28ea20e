import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyUseLiteEmbedder, LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { harness, memoryLogger, referenceServers, tempDir, type Harness } from '../helpers.js';

// Slow: the demo's reference servers from npm and the real USE-Lite model (about 2 s in all).
describe('hybrid search with USE-Lite over the demo servers', () => {
  let h: Harness;
  const logger = memoryLogger();
  const progress: string[] = [];
  const tmp = tempDir();
  beforeAll(async () => {
    h = await harness(referenceServers(tmp.dir), tmp.dir, {
      logger,
      search: {
        strategy: 'hybrid',
        embedder: lazyUseLiteEmbedder(),
        onProgress: (p) => progress.push(`${p.done}/${p.total}`),
      },
    });
    const reports = await h.gateway.sync(ME);
    expect(reports.map((r) => r.error ?? r.status)).toEqual(['success', 'success', 'success']);
  });
  afterAll(async () => {
    await h.close();
    tmp.cleanup();
  });

  it('embeds the catalog once and ranks with the fused scores', async () => {
    const status = await h.gateway.prepareSearch(ME);
    const tools = (await h.store.tools.listAll()).length;
    expect(status).toMatchObject({ strategy: 'hybrid', state: 'ready', cachedVectors: tools });
    expect(progress.at(-1)).toBe(`${tools}/${tools}`);
    expect(logger.lines.filter((l) => l.startsWith('warn: search'))).toEqual([]);

    const sum = await h.gateway.searchToolsAsync(ME, 'add two numbers together', { limit: 3 });
    expect(sum[0]?.key).toBe('everything/get-sum');
    const files = await h.gateway.searchToolsAsync(ME, 'show me what is in a folder', { limit: 5 });
    expect(files.map((r) => r.key)).toContain('filesystem/list_directory');
    const [exact] = await h.gateway.searchToolsAsync(ME, 'create_entities');
    expect(exact).toMatchObject({ key: 'memory/create_entities', relevance: 1 });
  });
});
