import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CarteError } from '../../errors.js';
import { createOpenAiEmbedder } from '../index.js';
import { startStub, type Stub, type StubReply } from '../../../test/fixtures/remote-stub.js';

const KEY = 'sk-test-secret-0123456789';
let stub: Stub;
let id: string;

beforeAll(async () => {
  stub = await startStub();
  id = `openai:${stub.url.slice('http://'.length)}/test-model`;
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
});

/** An OpenAI answer with the given embeddings, listed in reverse index order to prove sorting. */
function answer(embeddings: unknown[]): StubReply {
  const data = embeddings.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse();
  return { body: JSON.stringify({ object: 'list', data, model: 'test-model' }) };
}

describe('createOpenAiEmbedder', () => {
  it('posts {model, input} batches with the key as a bearer token and returns unit vectors in index order', async () => {
    stub.reply = (req) => answer((req.body as { input: string[] }).input.map((t) => [t.length, 0, 0]));
    const embedder = createOpenAiEmbedder({
      baseUrl: stub.url,
      model: 'test-model',
      apiKey: KEY,
      batchSize: 2,
    });
    const vectors = await embedder.embed(['a', 'bb', '']);
    expect(embedder.id).toBe(id);
    expect(embedder.dimension).toBe(3);
    expect(vectors.map((v) => [...v])).toEqual([
      [1, 0, 0],
      [1, 0, 0],
      [1, 0, 0],
    ]);
    expect(stub.requests.map((r) => r.body)).toEqual([
      { model: 'test-model', input: ['a', 'bb'] },
      { model: 'test-model', input: [' '] },
    ]);
    expect(stub.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/v1/embeddings', `Bearer ${KEY}`],
      ['/v1/embeddings', `Bearer ${KEY}`],
    ]);
  });

  it('does not double a /v1 the base URL already ends with, and sends no key when none is set', async () => {
    stub.reply = () => answer([[0, 3, 4]]);
    const embedder = createOpenAiEmbedder({ baseUrl: `${stub.url}/v1/`, model: 'test-model' });
    expect([...(await embedder.embed(['x']))[0]!]).toEqual([0, 0.6000000238418579, 0.800000011920929]);
    expect(stub.requests[0]!.path).toBe('/v1/embeddings');
    expect(stub.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('embeds nothing without a request', async () => {
    const embedder = createOpenAiEmbedder({ baseUrl: stub.url, model: 'test-model' });
    expect(await embedder.embed([])).toEqual([]);
    expect(stub.requests).toEqual([]);
  });

  // Every failure mode, as the message's end after `remote provider "<id>" `.
  it.each<[string, StubReply, string]>([
    ['HTTP 500', { status: 500, body: '{"error":"boom"}' }, 'answered HTTP 500'],
    ['HTTP 401 echoing the key', { status: 401, body: `{"error":"bad key ${KEY}"}` }, 'answered HTTP 401'],
    ['a hang', 'hang', 'did not answer within 200 ms'],
    ['a dropped connection', 'close', 'connection failed: other side closed'],
    ['non-JSON', { body: '<html>oops' }, 'answered with a body that is not JSON'],
    ['no data array', { body: '{"object":"list","embeddings":[]}' }, 'answered without a "data" array'],
    ['too few embeddings', answer([[1, 0, 0]]), 'answered data of length 1, not 2 (one per input)'],
    [
      'a repeated index',
      { body: '{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}' },
      'answered a bad or repeated data[1].index',
    ],
    [
      'a missing embedding',
      { body: '{"data":[{"index":0},{"index":1,"embedding":[1]}]}' },
      'answered data[0].embedding that is not a non-empty array',
    ],
    [
      'a null value',
      answer([
        [1, 0, 0],
        [1, null, 0],
      ]),
      'answered data[0].embedding[1] that is not a finite number',
    ],
    [
      'a "NaN" string',
      answer([
        [1, 0, 'NaN'],
        [1, 0, 0],
      ]),
      'answered data[1].embedding[2] that is not a finite number',
    ],
    [
      'an overflowing number',
      { body: '{"data":[{"index":0,"embedding":[1e999]},{"index":1,"embedding":[1]}]}' },
      'answered data[0].embedding[0] that is not a finite number',
    ],
    [
      'vectors of two lengths',
      answer([
        [1, 0, 0],
        [1, 0],
      ]),
      'answered 2-dimensional vectors but earlier vectors were 3-dimensional',
    ],
  ])('refuses %s with an exact message that never holds the key', async (_, reply, end) => {
    stub.reply = () => reply;
    const embedder = createOpenAiEmbedder({
      baseUrl: stub.url,
      model: 'test-model',
      apiKey: KEY,
      timeoutMs: 200,
    });
    const err: unknown = await embedder.embed(['a', 'b']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CarteError);
    expect((err as Error).message).toBe(`remote provider "${id}" ${end}`);
    expect((err as Error).message).not.toContain(KEY);
  });

  it('refuses vectors of another dimension than configured, naming both and the fix', async () => {
    stub.reply = () => answer([[1, 0, 0]]);
    const embedder = createOpenAiEmbedder({ baseUrl: stub.url, model: 'test-model', dimension: 4 });
    await expect(embedder.embed(['a'])).rejects.toHaveProperty(
      'message',
      `remote provider "${id}" answered 3-dimensional vectors but the configured dimension is 4; set it to 3 and re-embed, or use the model the stored vectors came from`,
    );
  });

  it('refuses a batch size below 1', () => {
    expect(() => createOpenAiEmbedder({ baseUrl: 'http://x', model: 'm', batchSize: 0 })).toThrow(
      'embedder batchSize must be a whole number of at least 1, not 0',
    );
  });
});
