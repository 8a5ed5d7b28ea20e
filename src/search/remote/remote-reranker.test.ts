import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CarteError } from '../../errors.js';
import { createHttpReranker } from '../index.js';
import { startStub, type Stub, type StubReply } from '../../../test/fixtures/remote-stub.js';

const KEY = 'jina_test-secret-0123456789';
const CANDIDATES = [
  { key: 'fs/read_file', text: 'read file' },
  { key: 'fs/write_file', text: 'write file' },
  { key: 'web/fetch', text: 'fetch url' },
];
let stub: Stub;
let url: string;
let id: string;

beforeAll(async () => {
  stub = await startStub();
  url = `${stub.url}/v1/rerank`;
  id = `rerank:${stub.url.slice('http://'.length)}/test-reranker`;
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
});

function results(pairs: [unknown, unknown][]): StubReply {
  return {
    body: JSON.stringify({ results: pairs.map(([index, relevance_score]) => ({ index, relevance_score })) }),
  };
}

function rerank(timeoutMs = 200): Promise<{ key: string; score: number }[]> {
  const reranker = createHttpReranker({ url, model: 'test-reranker', apiKey: KEY, timeoutMs });
  return reranker.rerank('write a file', CANDIDATES, new AbortController().signal);
}

describe('createHttpReranker', () => {
  it('posts {model, query, documents, top_n} with the key as a bearer token and maps indexes to keys', async () => {
    stub.reply = () =>
      results([
        [1, 0.9],
        [0, 0.4],
        [2, 0.1],
      ]);
    expect(await rerank()).toEqual([
      { key: 'fs/write_file', score: 0.9 },
      { key: 'fs/read_file', score: 0.4 },
      { key: 'web/fetch', score: 0.1 },
    ]);
    expect(stub.requests).toEqual([
      {
        path: '/v1/rerank',
        headers: expect.objectContaining({ authorization: `Bearer ${KEY}` }),
        body: {
          model: 'test-reranker',
          query: 'write a file',
          documents: ['read file', 'write file', 'fetch url'],
          top_n: 3,
        },
      },
    ]);
  });

  it('accepts fewer results than documents, sends no model or key when none is set, and skips empty input', async () => {
    stub.reply = () => results([[2, 1]]);
    const reranker = createHttpReranker({ url });
    expect(reranker.id).toBe(`rerank:${stub.url.slice('http://'.length)}`);
    expect(await reranker.rerank('q', CANDIDATES, new AbortController().signal)).toEqual([
      { key: 'web/fetch', score: 1 },
    ]);
    expect(await reranker.rerank('q', [], new AbortController().signal)).toEqual([]);
    expect(stub.requests.map((r) => [r.body, r.headers.authorization])).toEqual([
      [{ query: 'q', documents: ['read file', 'write file', 'fetch url'], top_n: 3 }, undefined],
    ]);
  });

  // Every failure mode, as the message's end after `remote provider "<id>" `.
  it.each<[string, StubReply, string]>([
    ['HTTP 500', { status: 500, body: '{"message":"boom"}' }, 'answered HTTP 500'],
    ['HTTP 401 echoing the key', { status: 401, body: `{"message":"invalid ${KEY}"}` }, 'answered HTTP 401'],
    ['a hang', 'hang', 'did not answer within 200 ms'],
    ['a dropped connection', 'close', 'connection failed: other side closed'],
    ['non-JSON', { body: 'Bad Gateway' }, 'answered with a body that is not JSON'],
    ['a JSON array', { body: '[]' }, 'answered without a "results" array'],
    ['an OpenAI-style body', { body: '{"data":[]}' }, 'answered without a "results" array'],
    [
      'more results than documents',
      results([
        [0, 1],
        [1, 1],
        [2, 1],
        [0, 1],
      ]),
      'answered more results (4) than documents (3)',
    ],
    ['an index out of range', results([[3, 1]]), 'answered a bad or repeated results[0].index'],
    ['a fractional index', results([[0.5, 1]]), 'answered a bad or repeated results[0].index'],
    [
      'a repeated index',
      results([
        [1, 1],
        [1, 0.5],
      ]),
      'answered a bad or repeated results[1].index',
    ],
    [
      'a null score',
      results([
        [0, 1],
        [1, null],
      ]),
      'answered results[1].relevance_score that is not a finite number',
    ],
    [
      'a "NaN" score',
      results([[0, 'NaN']]),
      'answered results[0].relevance_score that is not a finite number',
    ],
    [
      'an overflowing score',
      { body: '{"results":[{"index":0,"relevance_score":-1e999}]}' },
      'answered results[0].relevance_score that is not a finite number',
    ],
  ])('refuses %s with an exact message that never holds the key', async (_, reply, end) => {
    stub.reply = () => reply;
    const err: unknown = await rerank().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CarteError);
    expect((err as Error).message).toBe(`remote provider "${id}" ${end}`);
    expect((err as Error).message).not.toContain(KEY);
  });

  it("rethrows the caller's abort reason as is", async () => {
    stub.reply = () => 'hang';
    const reranker = createHttpReranker({ url, timeoutMs: 5000 });
    const controller = new AbortController();
    const pending = reranker.rerank('q', CANDIDATES, controller.signal);
    controller.abort(new Error('caller went away'));
    await expect(pending).rejects.toThrow('caller went away');
  });
});
