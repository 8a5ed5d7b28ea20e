import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildHybridIndex,
  buildSearchIndex,
  createOpenAiEmbedder,
  withFallback,
  type SearchDoc,
} from '../index.js';
import { startStub, type Stub, type StubReply } from '../../../test/fixtures/remote-stub.js';

const DOCS: SearchDoc[] = [
  { key: 'fs/read_file', server: 'fs', name: 'read_file', description: 'Read a file from disk.' },
  { key: 'web/fetch', server: 'web', name: 'fetch', description: 'Fetch a URL and return its text.' },
  { key: 'mail/send_email', server: 'mail', name: 'send_email', description: 'Send an email.' },
];
const lexical = buildSearchIndex(DOCS);
const TOPICS = [/file/i, /web|url|fetch/i, /write/i, /mail|contact/i];
/** A toy embedding model: one dimension per topic the text mentions. */
const embedText = (text: string) => [...TOPICS.map((t) => (t.test(text) ? 1 : 0)), 0.1];

/**
 * Every request's limit: short, since one case waits it out, but long enough that the other cases'
 * answers (and the index's first embedding) arrive in time on a loaded machine (200 ms did not).
 */
const TIMEOUT_MS = 1000;

let stub: Stub;
let host: string;
beforeAll(async () => {
  stub = await startStub();
  host = stub.url.slice('http://'.length);
});
afterAll(() => stub.close());

// The gateway's embedder flow: build the hybrid index once, then per query embed remotely or fall back to lexical.
describe('remote query embedding, else lexical only', () => {
  const embeddings = (input: string[]) => ({
    body: JSON.stringify({ data: input.map((t, index) => ({ index, embedding: embedText(t) })) }),
  });

  it.each<[string, StubReply | null, string | null]>([
    ['works', null, null],
    ['answers HTTP 500', { status: 500, body: '{}' }, 'answered HTTP 500'],
    ['hangs', 'hang', `did not answer within ${TIMEOUT_MS} ms`],
    ['answers non-JSON', { body: 'not json' }, 'answered with a body that is not JSON'],
    ['answers JSON of the wrong shape', { body: '{"results":[]}' }, 'answered without a "data" array'],
    [
      'answers two vectors for one input',
      embeddings(['a', 'b']),
      'answered data of length 2, not 1 (one per input)',
    ],
    [
      'answers a NaN-like vector',
      { body: '{"data":[{"index":0,"embedding":[0,0,0,null,0.1]}]}' },
      'answered data[0].embedding[3] that is not a finite number',
    ],
    ['closes the connection', 'close', 'connection failed: other side closed'],
  ])('when the embedder %s', async (_, reply, end) => {
    stub.reply = (req) => embeddings((req.body as { input: string[] }).input);
    const embedder = createOpenAiEmbedder({ baseUrl: stub.url, model: 'toy', timeoutMs: TIMEOUT_MS });
    const hybrid = await buildHybridIndex(DOCS, { embedder });
    if (reply) stub.reply = () => reply;
    const local = lexical.search('contact someone');
    const out = await withFallback(() => hybrid.search('contact someone'), local, { provider: embedder.id });
    expect(local).toEqual([]); // only the vector side finds the mail tool
    if (end === null) {
      expect(out.meta).toEqual({ provider: `openai:${host}/toy`, fallback: false });
      expect(out.value[0]!.key).toBe('mail/send_email');
    } else {
      const reason = `remote provider "openai:${host}/toy" ${end}`;
      expect(out).toEqual({ value: [], meta: { provider: `openai:${host}/toy`, fallback: true, reason } });
    }
  });
});
