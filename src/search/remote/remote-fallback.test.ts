import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  buildSearchIndex,
  createHttpReranker,
  rerankWithFallback,
  withFallback,
  type SearchDoc,
} from '../index.js';
import { startStub, type Stub, type StubReply } from '../../../test/fixtures/remote-stub.js';

const KEY = 'sk-fallback-secret-0123456789';
const DOCS: SearchDoc[] = [
  { key: 'fs/read_file', server: 'fs', name: 'read_file', description: 'Read a file from disk.' },
  { key: 'fs/write_file', server: 'fs', name: 'write_file', description: 'Write a file to disk.' },
  {
    key: 'fs/list_directory',
    server: 'fs',
    name: 'list_directory',
    description: 'List the files of a directory.',
  },
  { key: 'web/fetch', server: 'web', name: 'fetch', description: 'Fetch a URL and return its text.' },
  { key: 'mail/send_email', server: 'mail', name: 'send_email', description: 'Send an email.' },
];
const lexical = buildSearchIndex(DOCS);

let stub: Stub;
let host: string;
beforeAll(async () => {
  stub = await startStub();
  host = stub.url.slice('http://'.length);
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
});

// The modes of the brief; each failure's reason, after `remote provider "<id>" `.
const FAILURES: [string, StubReply, string][] = [
  ['answers HTTP 500', { status: 500, body: '{}' }, 'answered HTTP 500'],
  ['hangs', 'hang', 'did not answer within 200 ms'],
  ['answers non-JSON', { body: 'not json' }, 'answered with a body that is not JSON'],
  ['answers JSON of the wrong shape', { body: '{"ok":true}' }, 'answered without a "results" array'],
  [
    'answers too many results',
    {
      body: '{"results":[{"index":0,"relevance_score":1},{"index":1,"relevance_score":1},{"index":2,"relevance_score":1},{"index":0,"relevance_score":1}]}',
    },
    'answered more results (4) than documents (3)',
  ],
  [
    'answers a NaN-like score',
    { body: '{"results":[{"index":0,"relevance_score":"NaN"}]}' },
    'answered results[0].relevance_score that is not a finite number',
  ],
  ['closes the connection', 'close', 'connection failed: other side closed'],
];

describe('rerankWithFallback', () => {
  const local = lexical.search('file');
  const reranker = () => createHttpReranker({ url: `${stub.url}/rerank`, apiKey: KEY, timeoutMs: 200 });
  const textOf = (key: string) => DOCS.find((d) => d.key === key)!.description!;

  it('puts the top hits in the remote order, keeps relevance positional and the tail in place', async () => {
    expect(local.map((h) => h.key)).toEqual(['fs/read_file', 'fs/write_file', 'fs/list_directory']);
    stub.reply = () => ({
      body: '{"results":[{"index":1,"relevance_score":0.8},{"index":0,"relevance_score":0.3}]}',
    });
    const onFallback = vi.fn();
    const out = await rerankWithFallback('write a file', local, {
      reranker: reranker(),
      textOf,
      topN: 2,
      onFallback,
    });
    expect(out).toEqual({
      value: [
        { key: 'fs/write_file', relevance: local[0]!.relevance },
        { key: 'fs/read_file', relevance: local[1]!.relevance },
        local[2],
      ],
      meta: { provider: `rerank:${host}`, fallback: false },
    });
    expect(stub.requests[0]!.body).toEqual({
      query: 'write a file',
      documents: [textOf('fs/read_file'), textOf('fs/write_file')],
      top_n: 2,
    });
    expect(stub.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(onFallback).not.toHaveBeenCalled();
  });

  it.each(FAILURES)('returns the local ranking when the reranker %s', async (_, reply, end) => {
    stub.reply = () => reply;
    const onFallback = vi.fn();
    const out = await rerankWithFallback('file', local, { reranker: reranker(), textOf, onFallback });
    const reason = `remote provider "rerank:${host}" ${end}`;
    expect(out).toEqual({ value: local, meta: { provider: `rerank:${host}`, fallback: true, reason } });
    expect(onFallback.mock.calls).toEqual([[reason]]);
    expect(reason).not.toContain(KEY);
  });

  it('cuts a remote step at its own deadline when the client would wait longer', async () => {
    stub.reply = () => 'hang';
    const slow = createHttpReranker({ url: `${stub.url}/rerank`, timeoutMs: 5000 });
    const out = await rerankWithFallback('file', local, { reranker: slow, textOf, timeoutMs: 200 });
    expect(out.meta).toEqual({
      provider: `rerank:${host}`,
      fallback: true,
      reason: `remote provider "rerank:${host}" did not answer within 200 ms`,
    });
  });

  it('does not call the reranker for fewer than two hits', async () => {
    const one = lexical.search('email');
    expect(await rerankWithFallback('email', one, { reranker: reranker(), textOf })).toEqual({
      value: one,
      meta: { provider: `rerank:${host}`, fallback: false },
    });
    expect(stub.requests).toEqual([]);
  });
});

describe('withFallback', () => {
  it('gives up on a step that ignores its signal, and names a thrown bug', async () => {
    const never = () => new Promise<string>(() => {});
    expect(await withFallback(never, 'local', { provider: 'p', timeoutMs: 200 })).toEqual({
      value: 'local',
      meta: { provider: 'p', fallback: true, reason: 'remote provider "p" did not answer within 200 ms' },
    });
    const bug = () => Promise.reject(new TypeError('x is not a function'));
    expect((await withFallback(bug, 'local', { provider: 'p' })).meta).toEqual({
      provider: 'p',
      fallback: true,
      reason: 'remote provider "p" failed: x is not a function',
    });
  });

  it("rethrows the caller's cancellation instead of falling back", async () => {
    const controller = new AbortController();
    const onFallback = vi.fn();
    const pending = withFallback(() => new Promise<string>(() => {}), 'local', {
      provider: 'p',
      signal: controller.signal,
      onFallback,
    });
    controller.abort(new Error('request cancelled'));
    await expect(pending).rejects.toThrow('request cancelled');
    expect(onFallback).not.toHaveBeenCalled();
  });
});
