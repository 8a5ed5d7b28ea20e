// Slow: search.rerank "sampling" through the built CLI (`npm run build` first) as a real process,
// with the real server-memory upstream, over stdio and over `carte serve --http`, on both protocol
// eras. The client is a real v2 client whose sampling handler answers; on 2026-07-28 it fulfils
// Carte's input_required result and retries, over HTTP as two separate POSTs.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { referenceEntry, tempDir } from '../helpers.js';
import { serveArgs } from '../face-clients.js';
import { hitsOf, MODERN, used } from './rerank-sampling-setup.js';

type Era = 'legacy' | 'modern';
const tmp = tempDir();
const config = join(tmp.dir, 'carte.yaml');
const carte = (...rest: string[]) => serveArgs(config, join(tmp.dir, 'data'), ...rest);

beforeAll(() => {
  const memory = `    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(referenceEntry('server-memory'))}]\n    env: { MEMORY_FILE_PATH: "\${dataDir}/memory.jsonl" }\n`;
  writeFileSync(
    config,
    `servers:\n  memory:\n${memory}search:\n  rerank:\n    provider: sampling\n    timeoutMs: 5000\n`,
  );
});
afterAll(() => tmp.cleanup());

/** One search_tools call from a client with a sampling handler that puts memory/read_graph first. */
async function searchOver(era: Era, transport: Transport) {
  const options = {
    capabilities: { sampling: {} },
    ...(era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {}),
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
  await client.connect(transport);
  try {
    expect(client.getProtocolEra()).toBe(era);
    const r = await client.callTool({
      name: 'search_tools',
      arguments: { query: 'entities in the graph', limit: 2 },
    });
    return { ...hitsOf(r), asked };
  } finally {
    await client.close();
  }
}

describe('carte serve with search.rerank sampling, over stdio', () => {
  it.each<Era>(['legacy', 'modern'])("asks the client's model on the %s era", async (era) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: carte(), stderr: 'pipe' });
    const { keys, meta, asked } = await searchOver(era, transport);
    expect(keys[0]).toBe('memory/read_graph');
    expect(meta).toEqual(used());
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Request: entities in the graph\n/);
  });
});

describe('carte serve --http with search.rerank sampling', () => {
  let child: ChildProcess;
  let base = '';
  let token = '';
  const posts: string[] = [];

  beforeAll(async () => {
    child = spawn(process.execPath, carte('--http', '--port', '0'), {
      env: { ...process.env, CARTE_CONFIG: '' },
      cwd: tmp.dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    await waitFor(() => stderr.includes('Serving HTTP now'), 60_000);
    const menu = /(http:\/\/127\.0\.0\.1:\d+)\/#login=(\S+)/.exec(stderr);
    expect(menu).not.toBeNull();
    base = menu![1]!;
    const login = await fetch(`${base}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: menu![2] }),
    });
    token = ((await login.json()) as { token: string }).token;
  }, 90_000);
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it.each<Era>(['legacy', 'modern'])("asks the client's model on the %s era", async (era) => {
    posts.length = 0;
    // Count the tools/call POSTs: on the modern era the question and the answer are two requests.
    const counting: typeof fetch = (url, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      if (body.includes('"tools/call"')) posts.push(body);
      return fetch(url, init);
    };
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: counting,
    });
    const { keys, meta, asked } = await searchOver(era, transport);
    expect(keys[0]).toBe('memory/read_graph');
    expect(meta).toEqual(used());
    expect(asked).toHaveLength(1);
    expect(posts).toHaveLength(era === 'modern' ? 2 : 1);
    if (era === 'modern') expect(posts[1]).toContain('"requestState"');
  });
});

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
