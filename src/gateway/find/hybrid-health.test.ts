import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyDiscovery, type ListedTool } from '../../catalog/index.js';
import { createHashingEmbedder, lazyEmbedder, WARM_UP_TEXT, type Embedder } from '../../search/index.js';
import { openStore, type Store } from '../../store/index.js';
import { backoffMs, HybridHealth } from './hybrid-health.js';
import { Gateway, LOCAL_CALLER as ME, type GatewayServer, type Logger } from '../index.js';

// The backoff state machine alone (an injected clock), then a real gateway over a real SQLite file
// whose model fails N times and then works: degraded -> retrying -> ready without a restart.

describe('backoff', () => {
  it.each([
    [1, 1000],
    [2, 2000],
    [3, 4000],
    [9, 256_000],
    [10, 300_000], // capped
    [60, 300_000],
  ])('after failure %i waits %i ms', (failures, ms) => {
    expect(backoffMs({ baseMs: 1000, capMs: 300_000 }, failures)).toBe(ms);
  });

  it('goes ok -> degraded -> retrying -> degraded (longer wait) -> retrying -> ok', () => {
    let now = 0;
    const health = new HybridHealth({ baseMs: 1000, capMs: 300_000 }, () => now);
    expect(health.report()).toEqual({ state: 'ok', failures: 0 });
    expect(health.beginIfDue()).toBe(false); // nothing to retry
    expect(health.fail('no model')).toBe(1000);
    now = 400;
    expect(health.report()).toEqual({ state: 'degraded', failures: 1, reason: 'no model', retryInMs: 600 });
    expect(health.beginIfDue()).toBe(false);
    now = 1000;
    expect(health.beginIfDue()).toBe(true);
    expect(health.beginIfDue()).toBe(false); // one attempt at a time
    expect(health.report()).toEqual({ state: 'retrying', failures: 1, reason: 'no model' });
    expect(health.fail('still no model')).toBe(2000);
    now = 3000;
    expect(health.beginIfDue()).toBe(true);
    expect(health.succeed()).toBe(2);
    expect(health.report()).toEqual({ state: 'ok', failures: 0 });
  });
});

const CATALOG: Record<string, ListedTool[]> = {
  files: [
    {
      name: 'read_file',
      description: 'Read the contents of a file from disk.',
      inputSchema: { type: 'object' },
    },
    { name: 'write_file', description: 'Write text to a file on disk.', inputSchema: { type: 'object' } },
  ],
  mail: [{ name: 'send_email', description: 'Send an email message.', inputSchema: { type: 'object' } }],
};
const MODEL = 'hashing-64+text-v1';

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

function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (m: string) => void lines.push(`${level}: ${m}`);
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The fixture: a lazily loaded model (the seam the CLI uses for USE-Lite) whose first `failures` loads fail. */
function flakyModel(failures: number): Embedder & { loads: () => number } {
  const inner = createHashingEmbedder(64);
  let loads = 0;
  const lazy = lazyEmbedder(inner, () =>
    ++loads <= failures ? Promise.reject(new Error(`model load ${loads} failed`)) : Promise.resolve(inner),
  );
  return Object.assign(lazy, { loads: () => loads });
}

/** A model that loads when `release` is called (embedding works at once: the vectors' cache fills). */
function slowModel(): Embedder & { release: () => void } {
  const inner = createHashingEmbedder(64);
  let release!: () => void;
  const loaded = new Promise<void>((resolve) => (release = resolve));
  return { ...inner, warmUp: () => loaded, release };
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

async function openHybrid(embedder: Embedder, retry = { baseMs: 0, capMs: 0 }, path?: string) {
  if (!path) {
    const dir = mkdtempSync(join(tmpdir(), 'carte-health-'));
    dirs.push(dir);
    path = join(dir, 'carte.db');
  }
  const store = await openStore(path);
  const logger = memoryLogger();
  const search = { strategy: 'hybrid' as const, embedder, retry };
  // The catalog as a sync writes it, under the servers' config rows (as the gateway reconciles them).
  for (const [id, tools] of Object.entries(CATALOG)) {
    await store.servers.reconcileConfig(id, server(id).configHash);
    await applyDiscovery(store, id, { tools }, { pin: false });
  }
  const gateway = await Gateway.open({ servers: Object.keys(CATALOG).map(server), store, logger, search });
  open.push({ gateway, store });
  return { gateway, store, logger, path };
}

describe('a hybrid that heals', () => {
  it('goes degraded -> retrying -> ready without a restart; status and metadata say which', async () => {
    const model = flakyModel(2);
    const { gateway, logger } = await openHybrid(model);
    expect(await gateway.prepareSearch(ME)).toEqual({
      strategy: 'hybrid',
      model: MODEL,
      cachedVectors: 0,
      state: 'degraded',
      failures: 1,
      retryInMs: 0,
      reason: 'model load 1 failed',
    });

    // The next use starts the attempt after the (zero) wait: that search is lexical and says so.
    const during = await gateway.searchToolsWithMeta(ME, 'read a file');
    expect(during.results).toEqual(gateway.searchTools(ME, 'read a file'));
    expect(during.meta).toEqual({
      strategy: 'hybrid',
      fallback: true,
      steps: [
        {
          provider: 'hashing-64',
          fallback: true,
          reason: 'hybrid search is trying again after: model load 1 failed',
        },
      ],
      embeddings: { state: 'retrying', failures: 1 },
    });
    expect(await gateway.searchStatus(ME)).toMatchObject({ state: 'retrying', failures: 1 });

    expect(await gateway.prepareSearch(ME)).toMatchObject({
      state: 'degraded',
      failures: 2,
      reason: 'model load 2 failed',
    });
    expect(await gateway.prepareSearch(ME)).toEqual({
      strategy: 'hybrid',
      model: MODEL,
      cachedVectors: 3,
      state: 'ready',
    });
    const after = await gateway.searchToolsWithMeta(ME, 'read a file');
    expect(after.meta).toEqual({
      strategy: 'hybrid',
      fallback: false,
      steps: [{ provider: 'hashing-64', fallback: false }],
      embeddings: { state: 'ready' },
    });
    expect(model.loads()).toBe(3);
    expect(logger.lines.filter((l) => !l.startsWith('debug'))).toEqual([
      'warn: search: hybrid search is off (trying again in 0 s), answering lexically: model load 1 failed',
      'info: search: hybrid search works again after 2 failures',
    ]);
  });

  it('waits out the backoff: no attempt before it, and the status says when the next one may start', async () => {
    const model = flakyModel(1);
    const { gateway } = await openHybrid(model, { baseMs: 60_000, capMs: 300_000 });
    expect(await gateway.prepareSearch(ME)).toMatchObject({ state: 'degraded', failures: 1 });
    const { meta } = await gateway.searchToolsWithMeta(ME, 'send an email');
    expect(meta.embeddings).toMatchObject({ state: 'degraded', failures: 1 });
    expect(meta.embeddings?.retryInMs).toBeGreaterThan(0);
    expect(meta.steps).toEqual([
      { provider: 'hashing-64', fallback: true, reason: 'hybrid search is off: model load 1 failed' },
    ]);
    expect(await gateway.prepareSearch(ME)).toMatchObject({ state: 'degraded', failures: 1 });
    expect(model.loads()).toBe(1);
  });

  it('retries after a query embedding failed, probing the model before it is used again', async () => {
    const inner = createHashingEmbedder(64);
    let broken = false;
    const calls: string[][] = [];
    const model: Embedder = {
      ...inner,
      embed: (texts) => {
        calls.push(texts);
        return broken ? Promise.reject(new Error('model crashed')) : inner.embed(texts);
      },
    };
    const { gateway } = await openHybrid(model, { baseMs: 0, capMs: 0 });
    await gateway.prepareSearch(ME);
    broken = true;
    const failed = await gateway.searchToolsWithMeta(ME, 'write some text');
    expect(failed.meta.embeddings).toEqual({ state: 'degraded', failures: 1, retryInMs: 0 });
    broken = false;
    calls.length = 0;
    expect(await gateway.prepareSearch(ME)).toMatchObject({ state: 'ready' });
    expect(calls).toEqual([['probe']]); // the vectors were kept: only the probe
    expect((await gateway.searchToolsWithMeta(ME, 'write some text')).meta.fallback).toBe(false);
  });

  it('answers a query lexically while the model loads, marked so, then fuses once it has loaded', async () => {
    const first = await openHybrid(createHashingEmbedder(64));
    await first.gateway.prepareSearch(ME); // the vectors are cached, as on any start after the first
    const model = slowModel();
    const { gateway } = await openHybrid(model, undefined, first.path);
    const during = await gateway.searchToolsWithMeta(ME, 'read a file');
    expect(during.results).toEqual(gateway.searchTools(ME, 'read a file'));
    expect(during.meta).toEqual({
      strategy: 'hybrid',
      fallback: true,
      steps: [{ provider: 'hashing-64', fallback: true, reason: 'the model "hashing-64" is loading' }],
      embeddings: { state: 'loading' },
    });
    expect(await gateway.searchStatus(ME)).toEqual({
      strategy: 'hybrid',
      model: MODEL,
      cachedVectors: 3,
      state: 'loading',
    });
    model.release();
    expect(await gateway.prepareSearch(ME)).toMatchObject({ state: 'ready' });
    expect((await gateway.searchToolsWithMeta(ME, 'read a file')).meta.fallback).toBe(false);
  });

  it('warms a lazy model once: its load and one embedding happen before the first fused query', async () => {
    const inner = createHashingEmbedder(64);
    const calls: string[][] = [];
    const counted: Embedder = { ...inner, embed: (t) => (calls.push(t), inner.embed(t)) };
    const { gateway } = await openHybrid(lazyEmbedder(inner, () => Promise.resolve(counted)));
    await gateway.prepareSearch(ME);
    expect(calls[0]).toEqual([WARM_UP_TEXT]);
    await gateway.searchToolsAsync(ME, 'send an email');
    expect(calls.filter((c) => c[0] === WARM_UP_TEXT)).toHaveLength(1);
  });
});
