import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type Stub } from '../../fixtures/remote-stub.js';
import {
  connect,
  fellBack,
  optionsFrom,
  SAMPLING,
  SHORT,
  SHORT_TIMEOUT_MS,
  unranked,
  used,
  warnings,
  type Sampled,
} from './rerank-sampling-setup.js';

// search.rerank end to end on a 2025-era connection (push-style sampling/createMessage) and with
// openai-chat: a real v2 MCP client whose sampling handler answers well, wrongly, slowly or not
// at all, and one that never declared sampling. The 2026-07-28 era is in
// rerank-sampling-modern.test.ts, the built CLI over stdio and HTTP in rerank-sampling-cli.test.ts.

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
    expect(warnings(logger)).toEqual([]);
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
    expect(warnings(logger)).toEqual([
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
    expect(meta).toEqual(unranked);
    expect(warnings(logger)).toEqual([]);
  });

  it('does not ask for a multi-step search or a single hit', async () => {
    const { search, lexical, asked } = await connect(optionsFrom(SAMPLING), () => ({ text: '[]' }));
    const steps = ['read a file', 'fetch a url'];
    expect(await search(steps)).toEqual({
      keys: lexical(steps),
      meta: unranked,
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
