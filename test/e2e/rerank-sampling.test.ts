import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport, type CreateMessageRequest } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { applyDiscovery, type ListedTool } from '../../src/catalog/index.js';
import { parseConfigText } from '../../src/config/index.js';
import {
  LOCAL_CALLER as ME,
  llmRerankOptions,
  type GatewaySearchOptions,
  type SearchMeta,
} from '../../src/gateway/index.js';
import { createMcpServer } from '../../src/mcp/index.js';
import { startStub, type Stub } from '../fixtures/remote-stub.js';
import {
  harness,
  memoryLogger,
  referenceEntry,
  ROOT,
  stdioServer,
  tempDir,
  type Harness,
} from './helpers.js';

// search.rerank end to end: config text -> gateway over a real SQLite store -> Carte's MCP face ->
// a real v2 MCP client whose sampling handler answers well, wrongly, slowly or not at all, and
// one that never declared sampling. No upstream starts in-process: the catalog is written the
// way a sync writes it. The last block runs the built CLI over stdio, both protocol eras.

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
  web: [tool('fetch', 'Fetch a URL or a remote file and return its text.')],
};
// Generous deadlines (a loaded machine must not turn an answer into a timeout), short only where
// the test is about the deadline.
const TIMEOUT_MS = 5000;
const SHORT_TIMEOUT_MS = 300;

/** Gateway search options from config text, exactly as the CLI builds them for a lexical strategy. */
function optionsFrom(rerank: string): GatewaySearchOptions {
  const r = parseConfigText(`search:\n  rerank:\n${rerank}`, { path: '/cfg/carte.yaml', env: {} });
  expect(r.errors).toEqual([]);
  return { strategy: 'lexical', ...llmRerankOptions(r.config!.search) };
}

type Sampled = { text: string; delayMs?: number } | 'hang' | Error;
const open: { h: Harness; cleanup: () => void; client: Client }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.client.close();
    await o.h.close();
    o.cleanup();
  }
});

/** A gateway with the catalog, its MCP face, and a client; `sampling` scripts the client's model. */
async function connect(options: GatewaySearchOptions, sampling?: (req: CreateMessageRequest) => Sampled) {
  const dir = tempDir();
  const logger = memoryLogger();
  const servers = Object.keys(CATALOG).map((id) => stdioServer(id, ['never-started.js']));
  const h = harness(servers, dir.dir, { logger, search: options });
  for (const [id, tools] of Object.entries(CATALOG)) applyDiscovery(h.store, id, { tools });
  const asked: CreateMessageRequest[] = [];
  const cancelled: string[] = [];
  const client = new Client(
    { name: 'scripted', version: '0' },
    sampling ? { capabilities: { sampling: {} } } : {},
  );
  if (sampling)
    client.setRequestHandler('sampling/createMessage', async (request, ctx) => {
      asked.push(request);
      const answer = sampling(request);
      if (answer instanceof Error) throw answer;
      if (answer === 'hang')
        return new Promise((_, reject) =>
          ctx.mcpReq.signal.addEventListener('abort', () => {
            cancelled.push(String(ctx.mcpReq.signal.reason));
            reject(new Error('cancelled'));
          }),
        );
      // A slow model that ignores cancellation and answers anyway, late.
      if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      return { model: 'scripted-1', role: 'assistant', content: { type: 'text', text: answer.text } };
    });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(h.gateway).connect(serverSide);
  await client.connect(clientSide);
  open.push({ h, cleanup: dir.cleanup, client });
  const search = async (query: string | string[], limit = 3) => {
    const r = await client.request({
      method: 'tools/call',
      params: { name: 'search_tools', arguments: { query, limit } },
    });
    const { results } = r.structuredContent as { results: { key: string; relevance: number }[] };
    return { keys: results.map((x) => x.key), meta: (r._meta as Record<string, SearchMeta>)['carte/search'] };
  };
  const lexical = (query: string | string[], limit = 3) =>
    h.gateway.searchTools(ME, query, { limit }).map((r) => r.key);
  return { search, lexical, asked, cancelled, logger };
}

const SAMPLING = `    provider: sampling\n    timeoutMs: ${TIMEOUT_MS}\n`;
const SHORT = `    provider: sampling\n    timeoutMs: ${SHORT_TIMEOUT_MS}\n`;
const used = (provider = 'sampling'): SearchMeta => ({
  strategy: 'lexical',
  fallback: false,
  steps: [{ provider, fallback: false }],
});
const fellBack = (reason: string, provider = 'sampling'): SearchMeta => ({
  strategy: 'lexical',
  fallback: true,
  steps: [{ provider, fallback: true, reason: `remote provider "${provider}" ${reason}` }],
});

describe('search.rerank: sampling through the MCP client', () => {
  it("reorders the best hits by the client's model, and says so", async () => {
    const { search, lexical, asked, logger } = await connect(optionsFrom(SAMPLING), () => ({
      text: '["web/fetch", "files/delete_file"]',
    }));
    const local = lexical('file', 20);
    expect(local).toHaveLength(4);
    const { keys, meta } = await search('file');
    const rest = local.filter((k) => k !== 'web/fetch' && k !== 'files/delete_file');
    expect(keys).toEqual(['web/fetch', 'files/delete_file', rest[0]]); // named first, then local order, cut to 3
    expect(meta).toEqual(used());
    expect(asked).toHaveLength(1);
    const params = asked[0]!.params;
    expect(params).toMatchObject({ temperature: 0, includeContext: 'none' });
    expect(params.systemPrompt).toContain('JSON array of tool keys');
    const text = (params.messages[0]!.content as { text: string }).text;
    expect(text.split('\n').slice(0, 3)).toEqual(['Request: file', '', 'Tools (4):']);
    expect(text).toContain('files/read_file: Read the contents of a file from disk.');
    expect(logger.lines.filter((l) => l.startsWith('warn:'))).toEqual([]);
  });

  it('drops unknown keys and repeats in the answer, and reads it through prose', async () => {
    const { search, lexical } = await connect(optionsFrom(SAMPLING), () => ({
      text: 'Best first:\n```json\n["web/fetch", "github/create_issue", "web/fetch"]\n```',
    }));
    const local = lexical('file', 20).filter((k) => k !== 'web/fetch');
    const { keys, meta } = await search('file', 4);
    expect(keys).toEqual(['web/fetch', ...local]);
    expect(meta).toEqual(used());
  });

  it.each<[string, Sampled, string]>([
    ['answers prose only', { text: 'Use read_file.' }, 'answered with no JSON array of tool keys'],
    ['names none of the tools', { text: '["files/rm"]' }, 'answered a JSON array naming none of the 4 tools'],
    ['answers with an error', new Error('user declined'), 'failed: user declined'],
  ])('keeps the local order when the client %s, and says why', async (_, answer, reason) => {
    const { search, lexical, logger } = await connect(optionsFrom(SAMPLING), () => answer);
    const { keys, meta } = await search('file');
    expect(keys).toEqual(lexical('file'));
    expect(meta).toEqual(fellBack(reason));
    expect(logger.lines.filter((l) => l.startsWith('warn:'))).toEqual([
      `warn: search: remote provider "sampling" ${reason}; keeping the local order`,
    ]);
  });

  it('keeps the local order when the client does not answer in time, and cancels its request', async () => {
    const { search, lexical, cancelled } = await connect(optionsFrom(SHORT), () => 'hang');
    const { keys, meta } = await search('file');
    expect(keys).toEqual(lexical('file'));
    expect(meta).toEqual(fellBack(`did not answer within ${SHORT_TIMEOUT_MS} ms`));
    await expect.poll(() => cancelled.length).toBe(1); // the client was told (notifications/cancelled)
  });

  it('keeps the local order when the client answers after the deadline, and the late answer changes nothing', async () => {
    const late = { text: '["web/fetch"]', delayMs: SHORT_TIMEOUT_MS * 5 };
    const { search, lexical, asked } = await connect(optionsFrom(SHORT), () => late);
    const first = await search('file');
    expect(first).toEqual({
      keys: lexical('file'),
      meta: fellBack(`did not answer within ${SHORT_TIMEOUT_MS} ms`),
    });
    await new Promise((resolve) => setTimeout(resolve, late.delayMs)); // the late answer arrives meanwhile
    expect((await search('file')).keys).toEqual(lexical('file')); // the connection still serves searches
    expect(asked).toHaveLength(2);
  });

  it('keeps the local order silently for a client that did not declare sampling', async () => {
    const { search, lexical, logger } = await connect(optionsFrom(SAMPLING));
    const { keys, meta } = await search('file');
    expect(keys).toEqual(lexical('file'));
    expect(meta).toEqual({ strategy: 'lexical', fallback: false, steps: [] });
    expect(logger.lines.filter((l) => l.startsWith('warn:'))).toEqual([]);
  });

  it('does not ask for a multi-step search or a single hit', async () => {
    const { search, lexical, asked } = await connect(optionsFrom(SAMPLING), () => ({ text: '[]' }));
    const steps = ['read a file', 'fetch a url'];
    expect(await search(steps)).toEqual({
      keys: lexical(steps),
      meta: { strategy: 'lexical', fallback: false, steps: [] },
    });
    expect((await search('fetch url', 1)).meta).toEqual(used()); // one asked, but...
    expect(asked).toHaveLength(0); // ...fewer than 2 local hits: nothing to reorder
  });
});

describe('search.rerank: openai-chat through the gateway', () => {
  let stub: Stub;
  beforeAll(async () => {
    stub = await startStub();
  });
  afterAll(() => stub.close());

  it('reorders by a chat model over HTTP, whatever the client declared', async () => {
    stub.reply = () => ({
      body: JSON.stringify({
        choices: [{ message: { role: 'assistant', content: '["files/write_file"]' } }],
      }),
    });
    const chat = `    provider: openai-chat\n    url: ${stub.url}\n    model: qwen\n    timeoutMs: 5000\n`;
    const { search } = await connect(optionsFrom(chat));
    const { keys, meta } = await search('file', 1);
    expect(keys).toEqual(['files/write_file']);
    expect(meta).toEqual(used(`chat:${stub.url.slice('http://'.length)}/qwen`));
    expect(stub.requests.map((r) => r.path)).toEqual(['/v1/chat/completions']);
  });
});

// Slow: the built CLI (`npm run build` first) as a real process over stdio, with server-memory upstream.
describe('carte serve with search.rerank sampling, over stdio', () => {
  const tmp = tempDir();
  const config = join(tmp.dir, 'carte.yaml');
  const args = [
    join(ROOT, 'bin', 'carte.js'),
    'serve',
    '--config',
    config,
    '--data-dir',
    join(tmp.dir, 'data'),
  ];
  beforeAll(() => {
    const memory = `    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(referenceEntry('server-memory'))}]\n    env: { MEMORY_FILE_PATH: "\${dataDir}/memory.jsonl" }\n`;
    writeFileSync(
      config,
      `servers:\n  memory:\n${memory}search:\n  rerank:\n    provider: sampling\n    timeoutMs: 5000\n`,
    );
  });
  afterAll(() => tmp.cleanup());

  async function searchOver(era: 'legacy' | 'modern') {
    const options = {
      capabilities: { sampling: {} },
      ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    };
    const client = new Client({ name: `e2e-${era}`, version: '0' }, options);
    const asked: string[] = [];
    client.setRequestHandler('sampling/createMessage', (request) => {
      asked.push((request.params.messages[0]!.content as { text: string }).text);
      return {
        model: 'scripted-1',
        role: 'assistant',
        content: { type: 'text', text: '["memory/read_graph"]' },
      };
    });
    await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' }));
    try {
      const r = await client.callTool({
        name: 'search_tools',
        arguments: { query: 'entities in the graph', limit: 2 },
      });
      const { results } = r.structuredContent as { results: { key: string }[] };
      return {
        keys: results.map((x) => x.key),
        meta: (r._meta as Record<string, SearchMeta>)['carte/search'],
        asked,
      };
    } finally {
      await client.close();
    }
  }

  it("asks the client's model on a 2025-era connection", async () => {
    const { keys, meta, asked } = await searchOver('legacy');
    expect(keys[0]).toBe('memory/read_graph');
    expect(meta).toEqual(used());
    expect(asked).toHaveLength(1);
  });

  it('falls back and says why on the 2026-07-28 era, which has no server-to-client requests', async () => {
    const { meta, asked } = await searchOver('modern');
    expect(asked).toEqual([]);
    expect(meta).toEqual({
      strategy: 'lexical',
      fallback: true,
      steps: [
        {
          provider: 'sampling',
          fallback: true,
          reason:
            "the client's model cannot be asked on protocol 2026-07-28: sampling there needs an input_required round trip, which search_tools does not make",
        },
      ],
    });
  });
});
