import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyDiscovery, type ListedTool } from '../../catalog/index.js';
import { createHashingEmbedder, type Embedder } from '../../search/index.js';
import { openStore, type Store } from '../../store/index.js';
import {
  Gateway,
  LOCAL_CALLER as ME,
  localCaller,
  type GatewayProject,
  type GatewayServer,
  type Logger,
} from '../index.js';

// A real gateway over a real SQLite file; the embedder is the deterministic hashing one (a real
// implementation of the seam), wrapped to record what it was asked to embed. No upstream starts:
// the catalog is written the way a sync writes it, and search never starts an upstream.

const CATALOG: Record<string, ListedTool[]> = {
  files: [
    {
      name: 'read_file',
      description: 'Read the contents of a file from disk.',
      inputSchema: { type: 'object' },
    },
    { name: 'write_file', description: 'Write text to a file on disk.', inputSchema: { type: 'object' } },
    {
      name: 'list_directory',
      description: 'List the entries of a directory.',
      inputSchema: { type: 'object' },
    },
  ],
  mail: [
    {
      name: 'send_email',
      description: 'Send an email message to a recipient.',
      inputSchema: { type: 'object' },
    },
    { name: 'search', description: 'Search the mailbox for messages.', inputSchema: { type: 'object' } },
  ],
  // CJK name and description: left to the lexical side, never embedded.
  cn: [{ name: '天气预报', description: '查询城市的天气预报', inputSchema: { type: 'object' } }],
};
const EMBEDDABLE = 5;

const server = (id: string): GatewayServer => ({
  id,
  enabled: true,
  timeoutMs: 1000,
  discoveryTimeoutMs: 1000,
  idleTimeoutMs: 0,
  maxConcurrency: 1,
  maxQueue: 1,
  configHash: `hash-${id}`,
  target: { kind: 'stdio', command: 'never-started', args: [], env: {} },
  display: id,
});

interface Recording extends Embedder {
  calls: string[][];
}
function recording(inner: Embedder = createHashingEmbedder(64), fail?: string): Recording {
  const calls: string[][] = [];
  return {
    id: inner.id,
    dimension: inner.dimension,
    calls,
    embed(texts) {
      calls.push(texts);
      return fail ? Promise.reject(new Error(fail)) : inner.embed(texts);
    },
  };
}

function memoryLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const quiet = () => undefined;
  return { warnings, debug: quiet, info: quiet, error: quiet, warn: (m) => void warnings.push(m) };
}

const dirs: string[] = [];
const open: { gateway: Gateway; store: Store }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.gateway.close();
    await o.store.close();
  }
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'carte-hybrid-'));
  dirs.push(dir);
  return join(dir, 'carte.db');
}

/** Stores `catalog` as a sync writes it, under the servers' config rows (as the gateway reconciles them). */
async function writeCatalog(store: Store, catalog: typeof CATALOG, options: { pin?: boolean } = {}) {
  for (const [id, tools] of Object.entries(catalog)) {
    await store.servers.reconcileConfig(id, server(id).configHash);
    await applyDiscovery(store, id, { tools }, options);
  }
}

/** Opens a gateway in hybrid mode over the store at `path`, with `catalog` written as a sync would. */
async function openHybrid(
  path: string,
  embedder: Embedder,
  { catalog = CATALOG, projects }: { catalog?: typeof CATALOG; projects?: GatewayProject[] } = {},
) {
  const store = await openStore(path);
  const logger = memoryLogger();
  const progress: string[] = [];
  // Unpinned: a changed description here is an update to re-embed, not a drift to hold back.
  await writeCatalog(store, catalog, { pin: false });
  const gateway = await Gateway.open({
    servers: Object.keys(catalog).map(server),
    store,
    logger,
    ...(projects ? { projects: new Map(projects.map((p) => [p.id, p])) } : {}),
    search: {
      strategy: 'hybrid',
      embedder,
      batchSize: 2,
      onProgress: (p) => progress.push(`${p.done}/${p.total}`),
    },
  });
  open.push({ gateway, store });
  return { gateway, store, logger, progress };
}

async function closeLast(): Promise<void> {
  const o = open.pop()!;
  await o.gateway.close();
  await o.store.close();
}

describe('hybrid search in the gateway', () => {
  it('embeds each tool once, in batches with progress, and reuses the vectors after a reopen', async () => {
    const path = tempPath();
    const first = recording();
    const a = await openHybrid(path, first);
    const status = await a.gateway.prepareSearch(ME);
    expect(status).toEqual({
      strategy: 'hybrid',
      state: 'ready',
      model: 'hashing-64+text-v1',
      cachedVectors: EMBEDDABLE,
    });
    expect(first.calls.map((c) => c.length)).toEqual([2, 2, 1]);
    expect(first.calls.flat()).not.toContainEqual(expect.stringContaining('天气'));
    expect(a.progress).toEqual(['2/5', '4/5', '5/5']);
    await closeLast();

    const second = recording();
    const b = await openHybrid(path, second);
    await b.gateway.prepareSearch(ME);
    expect(second.calls).toEqual([]);
    await b.gateway.searchToolsAsync(ME, 'write text into a file');
    await b.gateway.searchToolsAsync(ME, 'write text into a file');
    expect(second.calls).toEqual([['write text into a file']]); // the query, once (LRU)
  });

  it('re-embeds only the tool whose description changed, and prunes the old vector', async () => {
    const path = tempPath();
    await openHybrid(path, recording());
    await open[0]!.gateway.prepareSearch(ME);
    await closeLast();

    const changed = { ...CATALOG, mail: [{ ...CATALOG.mail![0]!, description: 'Send a letter by email.' }] };
    const again = recording();
    const b = await openHybrid(path, again, { catalog: changed });
    const status = await b.gateway.prepareSearch(ME);
    expect(again.calls).toEqual([['send email: Send a letter by email.']]);
    expect(status.cachedVectors).toBe(EMBEDDABLE - 1); // mail/search is gone, send_email replaced
  });

  it('does not reuse the vectors of another model', async () => {
    const path = tempPath();
    await openHybrid(path, recording(createHashingEmbedder(64)));
    await open[0]!.gateway.prepareSearch(ME);
    await closeLast();

    const other = recording(createHashingEmbedder(32));
    const b = await openHybrid(path, other);
    expect(await b.gateway.prepareSearch(ME)).toMatchObject({
      model: 'hashing-32+text-v1',
      cachedVectors: 5,
    });
    expect(other.calls.flat()).toHaveLength(EMBEDDABLE);
    expect((await b.store.vectors.models()).map((m) => m.modelId)).toEqual([
      'hashing-32+text-v1',
      'hashing-64+text-v1',
    ]);
  });

  it('answers lexically until the vectors are ready', async () => {
    const a = await openHybrid(tempPath(), recording());
    const lexical = a.gateway.searchTools(ME, 'read a file');
    expect(await a.gateway.searchToolsAsync(ME, 'read a file')).toEqual(lexical);
    expect((await a.gateway.searchStatus(ME)).state).toBe('embedding');
    await a.gateway.prepareSearch(ME);
    expect((await a.gateway.searchToolsAsync(ME, 'read a file'))[0]?.key).toBe('files/read_file');
  });

  it('degrades to the lexical ranking with one warning when the model cannot load, until the backoff passes', async () => {
    const broken = recording(createHashingEmbedder(), 'Cannot find package @energetic-ai/embeddings');
    const a = await openHybrid(tempPath(), broken);
    for (let i = 0; i < 3; i++) {
      expect(await a.gateway.searchToolsAsync(ME, 'send an email')).toEqual(
        a.gateway.searchTools(ME, 'send an email'),
      );
      await a.gateway.prepareSearch(ME);
    }
    expect(a.logger.warnings).toEqual([
      'search: hybrid search is off (trying again in 1 s), answering lexically: Cannot find package @energetic-ai/embeddings',
    ]);
    expect(await a.gateway.searchStatus(ME)).toMatchObject({
      state: 'degraded',
      reason: 'Cannot find package @energetic-ai/embeddings',
    });
    expect(broken.calls).toHaveLength(1);
  });

  it('degrades when embedding a query throws, and still answers that query', async () => {
    const inner = createHashingEmbedder();
    const flaky: Embedder = {
      id: inner.id,
      dimension: inner.dimension,
      embed: (texts) =>
        texts[0] === 'list a directory' ? Promise.reject(new Error('model crashed')) : inner.embed(texts),
    };
    const a = await openHybrid(tempPath(), flaky);
    await a.gateway.prepareSearch(ME);
    const hits = await a.gateway.searchToolsAsync(ME, 'list a directory');
    expect(hits).toEqual(a.gateway.searchTools(ME, 'list a directory'));
    expect(a.logger.warnings).toEqual([
      'search: hybrid search is off (trying again in 1 s), answering lexically: model crashed',
    ]);
  });

  it('keeps exact names first', async () => {
    const a = await openHybrid(tempPath(), recording());
    await a.gateway.prepareSearch(ME);
    for (const [query, key] of [
      ['send_email', 'mail/send_email'],
      ['files/write_file', 'files/write_file'],
      ['天气预报', 'cn/天气预报'],
      ['list_directory please', 'files/list_directory'],
    ]) {
      const [top] = await a.gateway.searchToolsAsync(ME, query!);
      expect(top).toMatchObject({ key, relevance: 1 });
    }
  });

  it("keeps to the caller's project: the index holds the whole catalog, each answer the caller's tools", async () => {
    const project = (id: string, servers: GatewayProject['servers']) => ({
      id,
      servers,
      deny: [],
      confirm: [],
    });
    const projects = [project('default', 'all'), project('mail', ['mail'])];
    const a = await openHybrid(tempPath(), recording(), { projects });
    await a.gateway.prepareSearch(ME);
    const mail = localCaller('mail');
    const queries = ['send a file by email', 'files/write_file', ['write a file', 'search the messages']];
    for (const query of queries) {
      const everyone = await a.gateway.searchToolsAsync(ME, query);
      expect(everyone.map((r) => r.server)).toContain('files');
      const { results, meta } = await a.gateway.searchToolsWithMeta(mail, query);
      expect(meta.steps).toEqual([{ provider: 'hashing-64', fallback: false }]);
      expect(results.map((r) => r.key)).toEqual(
        everyone.map((r) => r.key).filter((k) => k.startsWith('mail/')),
      );
    }
  });

  it('embeds a tool added while serving, once search has been used', async () => {
    const path = tempPath();
    const embedder = recording();
    const a = await openHybrid(path, embedder);
    await a.gateway.prepareSearch(ME);
    embedder.calls.length = 0;
    await applyDiscovery(a.store, 'files', {
      tools: [
        ...CATALOG.files!,
        { name: 'delete_file', description: 'Delete a file from disk.', inputSchema: { type: 'object' } },
      ],
    });
    await a.gateway.reload(ME, Object.keys(CATALOG).map(server)); // announces the catalog change
    await a.gateway.prepareSearch(ME);
    expect(embedder.calls).toEqual([['delete file: Delete a file from disk.']]);
  });
});

describe('lexical strategy', () => {
  it('is the default: no embedder, no vectors, status lexical', async () => {
    const store = await openStore(tempPath());
    await writeCatalog(store, { files: CATALOG.files! });
    const gateway = await Gateway.open({ servers: [server('files')], store, logger: memoryLogger() });
    open.push({ gateway, store });
    expect(await gateway.prepareSearch(ME)).toEqual({ strategy: 'lexical', state: 'lexical' });
    expect(await gateway.searchToolsAsync(ME, 'read_file')).toEqual(gateway.searchTools(ME, 'read_file'));
    expect(await store.vectors.models()).toEqual([]);
  });
});
