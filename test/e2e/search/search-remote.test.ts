import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { applyDiscovery, type ListedTool } from '../../../src/catalog/index.js';
import { parseConfigText } from '../../../src/config/index.js';
import {
  LOCAL_CALLER as ME,
  remoteSearchOptions,
  type GatewaySearchOptions,
  type SearchMeta,
} from '../../../src/gateway/index.js';
import { createMcpServer } from '../../../src/mcp/index.js';
import { startStub, type Stub, type StubReply, type StubRequest } from '../../fixtures/remote-stub.js';
import { harness, memoryLogger, stdioServer, tempDir, type Harness } from '../helpers.js';

// The remote strategy end to end: config text -> providers -> gateway over a real SQLite store,
// against a real HTTP stub on port 0 that answers, fails, hangs or answers garbage. No upstream
// starts: the catalog is written the way a sync writes it.

const KEY = 'sk-test-secret-0123456789';
const tool = (name: string, description: string): ListedTool => ({
  name,
  description,
  inputSchema: { type: 'object' },
});
const CATALOG: Record<string, ListedTool[]> = {
  files: [
    tool('read_file', 'Read the contents of a file from disk.'),
    tool('write_file', 'Write text to a file on disk.'),
    tool('delete_file', 'Delete a file from disk.'),
  ],
  mail: [tool('send_email', 'Send an email message to a recipient.')],
  web: [tool('fetch', 'Fetch a URL and return its text.')],
};
const TOOLS = 5;

/** A toy embedding model: one dimension per topic the text mentions ("quux" is a mail word only it knows). */
const TOPICS = [/file/i, /url|fetch/i, /mail|quux/i, /write/i];
const embedText = (text: string) => [...TOPICS.map((t) => (t.test(text) ? 1 : 0)), 0.1];

const embeddings = (req: StubRequest): StubReply => {
  const { input } = req.body as { input: string[] };
  return { body: JSON.stringify({ data: input.map((t, index) => ({ index, embedding: embedText(t) })) }) };
};
/** The reranker's answer: the documents in reverse order. */
const reversed = (req: StubRequest): StubReply => {
  const { documents } = req.body as { documents: string[] };
  const results = documents.map((_, index) => ({ index, relevance_score: index }));
  return { body: JSON.stringify({ results }) };
};

let stub: Stub;
let host: string;
/** What the stub does per path; tests override one and leave the other answering. */
const routes: Record<string, (req: StubRequest) => StubReply> = {};
beforeAll(async () => {
  stub = await startStub();
  host = stub.url.slice('http://'.length);
  stub.reply = (req) => (routes[req.path] ?? (() => ({ status: 404, body: '{}' })))(req);
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
  routes['/v1/embeddings'] = embeddings;
  routes['/rerank'] = reversed;
});

const open: { h: Harness; cleanup: () => void }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.h.close();
    o.cleanup();
  }
});

/**
 * Search options from config text, exactly as the CLI builds them. The deadline is short only
 * where a stub hangs on purpose: a loaded CI machine can take over 200 ms to answer a first request.
 */
function optionsFrom(remote: string, timeoutMs = 5_000): GatewaySearchOptions {
  const text = `search:\n  strategy: remote\n  remote:\n    timeoutMs: ${timeoutMs}\n${remote}`;
  const r = parseConfigText(text, { path: '/cfg/carte.yaml', env: { TEST_KEY: KEY } });
  expect(r.errors).toEqual([]);
  return remoteSearchOptions(r.config!.search);
}
/** The deadline of the tests where a stub may hang (their expected reason names it). */
const HANG_MS = 200;
const RERANK = `    rerank:\n      url: \${STUB}/rerank\n      model: m\n      apiKey: \${env:TEST_KEY}\n`;
const EMBED = `    embeddings:\n      url: \${STUB}\n      model: toy\n      dimension: 5\n      apiKey: \${env:TEST_KEY}\n`;
const withStub = (yaml: string) => yaml.replaceAll('${STUB}', stub.url);

async function openGateway(search: GatewaySearchOptions, dir = tempDir()) {
  const logger = memoryLogger();
  const servers = Object.keys(CATALOG).map((id) => stdioServer(id, ['never-started.js']));
  const h = await harness(servers, dir.dir, { logger, search }, async (store) => {
    for (const [id, tools] of Object.entries(CATALOG)) await applyDiscovery(store, id, { tools });
  });
  open.push({ h, cleanup: dir.cleanup });
  return { gateway: h.gateway, store: h.store, logger };
}

const rerankId = () => `rerank:${host}/m`;
const embedId = () => `openai:${host}/toy`;
const warnings = (logger: { lines: string[] }) => logger.lines.filter((l) => l.startsWith('warn:'));
const fellBack = (provider: string, reason: string): SearchMeta => ({
  strategy: 'remote',
  fallback: true,
  steps: [{ provider, fallback: true, reason: `remote provider "${provider}" ${reason}` }],
});

describe('remote rerank', () => {
  it('reorders the local hits when the reranker answers, and says so', async () => {
    const { gateway, logger } = await openGateway(optionsFrom(withStub(RERANK)));
    const local = gateway.searchTools(ME, 'file', { limit: 2 });
    const deep = gateway.searchTools(ME, 'file', { limit: 20 }).map((r) => r.key);
    expect(deep).toHaveLength(3);
    const { results, meta } = await gateway.searchToolsWithMeta(ME, 'file', { limit: 2 });
    expect(meta).toEqual({
      strategy: 'remote',
      fallback: false,
      steps: [{ provider: rerankId(), fallback: false }],
    });
    expect(results.map((r) => r.key)).toEqual([deep[2], deep[1]]); // reversed, then cut to the limit
    expect(results.map((r) => r.relevance)).toEqual(local.map((r) => r.relevance)); // positional
    const [request] = stub.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toMatchObject({ model: 'm', query: 'file', top_n: 3 });
    expect((request?.body as { documents: string[] }).documents[0]).toMatch(/^files\/\w+_file: \w+/);
    expect(warnings(logger)).toEqual([]);
  });

  it.each<[string, StubReply, string]>([
    ['errors', { status: 500, body: `{"error":"bad key ${KEY}"}` }, 'answered HTTP 500'],
    ['hangs', 'hang', 'did not answer within 200 ms'],
    ['answers non-JSON', { body: '<html>oops</html>' }, 'answered with a body that is not JSON'],
    ['answers the wrong shape', { body: '{"data":[]}' }, 'answered without a "results" array'],
    [
      'answers an index out of range',
      { body: '{"results":[{"index":7,"relevance_score":1}]}' },
      'answered a bad or repeated results[0].index',
    ],
    ['hangs up', 'close', 'connection failed: other side closed'],
  ])('keeps the local order when the reranker %s, logs it once and says why', async (_, reply, reason) => {
    routes['/rerank'] = () => reply;
    const { gateway, logger } = await openGateway(optionsFrom(withStub(RERANK), HANG_MS));
    for (const query of ['file', 'a file']) {
      const { results, meta } = await gateway.searchToolsWithMeta(ME, query);
      expect(results).toEqual(gateway.searchTools(ME, query));
      expect(meta).toEqual(fellBack(rerankId(), reason));
    }
    expect(warnings(logger)).toEqual([
      `warn: search: remote provider "${rerankId()}" ${reason}; keeping the local order`,
    ]);
    expect(logger.lines.join('\n')).not.toContain(KEY);
  });

  it('is not asked for a multi-step search, whose merged ranking keeps each step its slots', async () => {
    const { gateway } = await openGateway(optionsFrom(withStub(RERANK)));
    const steps = ['read a file', 'fetch a url'];
    const { results, meta } = await gateway.searchToolsWithMeta(ME, steps);
    expect(results).toEqual(gateway.searchTools(ME, steps));
    expect(meta).toEqual({ strategy: 'remote', fallback: false, steps: [] });
    expect(stub.requests).toEqual([]);
  });
});

describe('remote embeddings', () => {
  it('embeds the catalog once into the store, then finds by meaning', async () => {
    const dir = tempDir();
    const a = await openGateway(optionsFrom(withStub(EMBED)), dir);
    const before = await a.gateway.searchToolsWithMeta(ME, 'quux');
    expect(before.meta.steps).toEqual([
      { provider: embedId(), fallback: true, reason: `the tool vectors of "${embedId()}" are not ready yet` },
    ]);
    expect(await a.gateway.prepareSearch(ME)).toEqual({
      strategy: 'remote',
      state: 'ready',
      model: `${embedId()}+text-v1`,
      cachedVectors: TOOLS,
    });
    expect(stub.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`]);
    expect(a.gateway.searchTools(ME, 'quux')).toEqual([]); // lexically, nothing
    const { results, meta } = await a.gateway.searchToolsWithMeta(ME, 'quux');
    expect(results[0]?.key).toBe('mail/send_email');
    expect(meta).toEqual({
      strategy: 'remote',
      fallback: false,
      steps: [{ provider: embedId(), fallback: false }],
    });
    await a.gateway.close();

    stub.requests.length = 0;
    const b = await openGateway(optionsFrom(withStub(EMBED)), dir);
    await b.gateway.prepareSearch(ME);
    expect(stub.requests).toEqual([]); // the vectors came from the store
  });

  it('learns the dimension from one probe when none is configured', async () => {
    const { gateway } = await openGateway(optionsFrom(withStub(EMBED.replace('      dimension: 5\n', ''))));
    expect(await gateway.prepareSearch(ME)).toMatchObject({ state: 'ready', cachedVectors: TOOLS });
    expect(stub.requests.map((r) => (r.body as { input: string[] }).input.length)).toEqual([1, TOOLS]);
  });

  it.each<[string, StubReply, string]>([
    ['errors', { status: 500, body: '{}' }, 'answered HTTP 500'],
    ['hangs', 'hang', 'did not answer within 200 ms'],
    ['answers garbage', { body: '{"data":"nope"}' }, 'answered without a "data" array'],
  ])(
    'answers a query lexically when the embedder %s, and tries again next time',
    async (_, reply, reason) => {
      const { gateway, logger } = await openGateway(optionsFrom(withStub(EMBED), HANG_MS));
      await gateway.prepareSearch(ME);
      routes['/v1/embeddings'] = () => reply;
      const failed = await gateway.searchToolsWithMeta(ME, 'write a file');
      expect(failed.results).toEqual(gateway.searchTools(ME, 'write a file'));
      expect(failed.meta).toEqual(fellBack(embedId(), reason));
      expect(warnings(logger)).toEqual([
        `warn: search: remote provider "${embedId()}" ${reason}; answering lexically`,
      ]);
      routes['/v1/embeddings'] = embeddings;
      const again = await gateway.searchToolsWithMeta(ME, 'quux');
      expect(again.meta.fallback).toBe(false);
      expect(again.results[0]?.key).toBe('mail/send_email');
    },
  );

  it('answers lexically while embedding the catalog fails, and embeds once it works', async () => {
    routes['/v1/embeddings'] = () => ({ status: 503, body: '{}' });
    const options = optionsFrom(withStub(EMBED));
    const { gateway, logger } = await openGateway({ ...options, remote: { ...options.remote, retryMs: 0 } });
    const reason = `remote provider "${embedId()}" answered HTTP 503`;
    expect(await gateway.prepareSearch(ME)).toMatchObject({ state: 'degraded', reason, cachedVectors: 0 });
    expect(warnings(logger)).toEqual([
      `warn: search: hybrid search is off (trying again in 0 s), answering lexically: ${reason}`,
    ]);
    routes['/v1/embeddings'] = embeddings;
    expect(await gateway.prepareSearch(ME)).toMatchObject({ state: 'ready', cachedVectors: TOOLS });
  });
});

describe('remote embeddings and rerank together', () => {
  it('reports both steps, and the MCP face puts them in _meta["carte/search"]', async () => {
    routes['/rerank'] = () => ({ status: 500, body: '{}' });
    const { gateway } = await openGateway(optionsFrom(withStub(EMBED + RERANK)));
    await gateway.prepareSearch(ME);
    expect(await gateway.searchStatus(ME)).toMatchObject({
      strategy: 'remote',
      state: 'ready',
      rerank: rerankId(),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(gateway).connect(serverSide);
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(clientSide);
    try {
      const r = await client.request({
        method: 'tools/call',
        params: { name: 'search_tools', arguments: { query: 'write a file' } },
      });
      expect(r._meta).toEqual({
        'carte/search': {
          strategy: 'remote',
          fallback: true,
          steps: [
            { provider: embedId(), fallback: false },
            {
              provider: rerankId(),
              fallback: true,
              reason: `remote provider "${rerankId()}" answered HTTP 500`,
            },
          ],
        },
      });
      expect(JSON.parse((r.content as Array<{ text: string }>)[0]!.text)).toEqual({
        results: (await gateway.searchToolsWithMeta(ME, 'write a file')).results,
      });
    } finally {
      await client.close();
    }
  });
});
