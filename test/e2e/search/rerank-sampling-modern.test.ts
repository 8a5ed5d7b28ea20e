import { describe, expect, it } from 'vitest';
import {
  connect,
  fellBack,
  hitsOf,
  optionsFrom,
  SAMPLING,
  SHORT,
  SHORT_TIMEOUT_MS,
  unranked,
  used,
  warnings,
  type Raw,
  type Sampled,
} from './rerank-sampling-setup.js';

// search.rerank "sampling" on the 2026-07-28 era, where the server may not send requests to its
// client: search_tools answers input_required with an embedded sampling/createMessage, and the
// client's retry carries its model's answer and Carte's requestState. A real v2 client pinned to
// 2026-07-28, auto-fulfilling through its sampling handler, or in manual mode so the test can see
// and forge each round.

const MODERN = { era: 'modern' } as const;
const MANUAL = { era: 'modern', manual: true } as const;
const answer = (text: string) => ({
  model: 'scripted-1',
  role: 'assistant',
  content: { type: 'text', text },
});

/** The first round of a manual client: the input_required result, its question and its state. */
async function firstRound(call: (args: Record<string, unknown>) => Promise<Raw>, query = 'file') {
  const r = await call({ query, limit: 3 });
  expect(r.resultType).toBe('input_required');
  const requests = r.inputRequests as Record<string, { method: string; params: Record<string, unknown> }>;
  return { requests, state: r.requestState as string };
}

describe('search.rerank sampling, 2026-07-28 era', () => {
  it("reorders the best hits by the client's model through an input_required round trip", async () => {
    const { search, lexical, asked, logger } = await connect(
      optionsFrom(SAMPLING),
      () => ({ text: '["web/fetch", "files/delete_file"]' }),
      MODERN,
    );
    const local = lexical('file', 20);
    const { keys, meta } = await search('file');
    const rest = local.filter((k) => k !== 'web/fetch' && k !== 'files/delete_file');
    expect(keys).toEqual(['web/fetch', 'files/delete_file', rest[0]]);
    expect(meta).toEqual(used());
    expect(asked).toHaveLength(1);
    expect(asked[0]!.params).toMatchObject({ temperature: 0, includeContext: 'none' });
    const text = (asked[0]!.params.messages[0]!.content as { text: string }).text;
    expect(text.split('\n').slice(0, 3)).toEqual(['Request: file', '', 'Tools (4):']);
    expect(warnings(logger)).toEqual([]);
  });

  it('asks with the query digest and the candidate keys as its state, and the retry finishes the search', async () => {
    const { call, lexical } = await connect(optionsFrom(SAMPLING), () => ({ text: 'unused' }), MANUAL);
    const { requests, state } = await firstRound(call);
    expect(Object.keys(requests)).toEqual(['rerank']);
    expect(requests.rerank!.method).toBe('sampling/createMessage');
    expect(requests.rerank!.params).toMatchObject({
      systemPrompt: expect.stringContaining('JSON array') as string,
    });
    const parsed = JSON.parse(state) as { kind: string; query: string; keys: string[] };
    expect(parsed).toEqual({
      kind: 'carte/rerank@1',
      query: expect.any(String) as string,
      keys: lexical('file', 20),
    });
    expect(parsed.query).not.toContain('file'); // a digest, not the query
    const done = await call(
      { query: 'file', limit: 3 },
      { requestState: state, inputResponses: { rerank: answer('["files/write_file"]') } },
    );
    expect(hitsOf(done)).toEqual({ keys: ['files/write_file', ...lexical('file', 2)], meta: used() });
  });

  it('lets another replica answer the retry: nothing is kept in memory between the rounds', async () => {
    const a = await connect(optionsFrom(SAMPLING), () => ({ text: 'unused' }), MANUAL);
    const b = await connect(optionsFrom(SAMPLING), () => ({ text: 'unused' }), MANUAL);
    const { state } = await firstRound(a.call);
    const done = await b.call(
      { query: 'file', limit: 3 },
      { requestState: state, inputResponses: { rerank: answer('["web/fetch"]') } },
    );
    expect(hitsOf(done)).toEqual({ keys: ['web/fetch', ...b.lexical('file', 2)], meta: used() });
  });

  it.each<[string, Sampled, string]>([
    ['answers prose only', { text: 'Use read_file.' }, 'answered with no JSON array of tool keys'],
    ['names none of the tools', { text: '["files/rm"]' }, 'answered a JSON array naming none of the 4 tools'],
  ])('keeps the local order when the client %s, and says why', async (_, sampled, reason) => {
    const { search, lexical, logger } = await connect(optionsFrom(SAMPLING), () => sampled, MODERN);
    expect(await search('file')).toEqual({ keys: lexical('file'), meta: fellBack(reason) });
    expect(warnings(logger)).toEqual([
      `warn: search: remote provider "sampling" ${reason}; keeping the local order`,
    ]);
  });

  it("fails the client's own call when its model fails: the v2 client does not retry after a handler error", async () => {
    const { search, asked } = await connect(optionsFrom(SAMPLING), () => new Error('user declined'), MODERN);
    await expect(search('file')).rejects.toThrow('user declined');
    expect(asked).toHaveLength(1);
  });

  it("uses a slow model's answer: the deadline cannot span the client's rounds", async () => {
    const slow = { text: '["web/fetch"]', delayMs: SHORT_TIMEOUT_MS * 3 };
    const { search } = await connect(optionsFrom(SHORT), () => slow, MODERN);
    const { keys, meta } = await search('file');
    expect([keys[0], meta]).toEqual(['web/fetch', used()]);
  });

  it.each<[string, (state: string) => [Record<string, unknown>, Record<string, unknown>], string]>([
    [
      'without an answer',
      (s) => [{ query: 'file' }, { requestState: s }],
      "the client retried without its model's answer",
    ],
    [
      'with a state Carte did not issue',
      () => [
        { query: 'file' },
        { requestState: '{"kind":"x"}', inputResponses: { rerank: answer('["web/fetch"]') } },
      ],
      'the client echoed a requestState that Carte did not issue',
    ],
    [
      'for another query',
      (s) => [{ query: 'disk' }, { requestState: s, inputResponses: { rerank: answer('["web/fetch"]') } }],
      "the client's retry searches for another query than the one its model ranked",
    ],
    [
      'over other tools (another server filter)',
      (s) => [
        { query: 'file', server: 'files' },
        { requestState: s, inputResponses: { rerank: answer('["web/fetch"]') } },
      ],
      'the tools to rank changed between the two rounds',
    ],
    [
      'with an elicitation result instead of a sampling one',
      (s) => [
        { query: 'file' },
        { requestState: s, inputResponses: { rerank: { action: 'accept', content: {} } } },
      ],
      'the client answered the sampling request with an elicitation result',
    ],
    [
      'with an answer that has no text',
      (s) => [
        { query: 'file' },
        {
          requestState: s,
          inputResponses: {
            rerank: {
              model: 'm',
              role: 'assistant',
              content: { type: 'image', data: '', mimeType: 'image/png' },
            },
          },
        },
      ],
      "the client's model answered without text",
    ],
  ])('keeps the local order for a retry %s, and never asks twice', async (_, retry, why) => {
    const { call, lexical } = await connect(optionsFrom(SAMPLING), () => ({ text: 'unused' }), MANUAL);
    const { state } = await firstRound(call);
    const [args, extra] = retry(state);
    const r = await call({ ...args, limit: 3 }, extra);
    expect(r.resultType).toBeUndefined();
    const query = args.query as string;
    const server = args.server as string | undefined;
    const local = lexical(query, 20).filter((k) => !server || k.startsWith(`${server}/`));
    expect(hitsOf(r)).toEqual({ keys: local.slice(0, 3), meta: fellBack(`failed: ${why}`) });
  });

  it('answers at once, silently, a client that did not declare sampling', async () => {
    const { call, lexical, logger } = await connect(optionsFrom(SAMPLING), undefined, MANUAL);
    const r = await call({ query: 'file', limit: 3 });
    expect(hitsOf(r)).toEqual({ keys: lexical('file'), meta: unranked });
    expect(warnings(logger)).toEqual([]);
  });

  it('answers at once a multi-step search or one with a single hit', async () => {
    const { call, lexical } = await connect(optionsFrom(SAMPLING), () => ({ text: 'unused' }), MANUAL);
    const steps = ['read a file', 'fetch a url'];
    expect(hitsOf(await call({ query: steps, limit: 3 }))).toEqual({ keys: lexical(steps), meta: unranked });
    expect(hitsOf(await call({ query: 'fetch url', limit: 1 })).meta).toEqual(used());
  });
});
