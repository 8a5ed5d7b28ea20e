import { describe, expect, it } from 'vitest';
import { parseConfigText, type Problem } from '../index.js';

const env = { CHAT_KEY: 'sk-secret-4567', CHAT_URL: 'ftp://x' };
const yaml = (text: string) => parseConfigText(text, { path: '/cfg/carte.yaml', env, dataDir: '/data' });
const only = (path: string, message: string): Problem[] => [{ path, message }];
const rerank = (body: string) => `search:\n  rerank:\n${body}`;
const CHAT = '    provider: openai-chat\n    url: http://127.0.0.1:11434\n    model: llama3.1:8b\n';

describe('search.rerank: defaults and variables', () => {
  it('fills topN and timeoutMs for sampling, under any strategy', () => {
    const r = yaml(rerank('    provider: sampling\n'));
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(r.config?.search).toEqual({
      strategy: 'lexical',
      rerank: { provider: 'sampling', topN: 20, timeoutMs: 5000 },
    });
  });

  it('expands ${env:NAME} in the url and apiKey of openai-chat', () => {
    const r = yaml(
      `search:\n  strategy: hybrid\n  rerank:\n${CHAT}    apiKey: \${env:CHAT_KEY}\n    topN: 8\n    timeoutMs: 900\n`,
    );
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(r.config?.search.rerank).toEqual({
      provider: 'openai-chat',
      url: 'http://127.0.0.1:11434',
      model: 'llama3.1:8b',
      apiKey: 'sk-secret-4567',
      topN: 8,
      timeoutMs: 900,
    });
  });

  it('ignores the HTTP keys under sampling, with a warning each', () => {
    const r = yaml(rerank('    provider: sampling\n    url: https://a\n    apiKey: x\n'));
    expect(r).toMatchObject({ ok: true, errors: [] });
    expect(r.warnings).toEqual([
      { path: 'search.rerank.url', message: 'ignored: provider is "sampling"' },
      { path: 'search.rerank.apiKey', message: 'ignored: provider is "sampling"' },
    ]);
    expect(r.config?.search.rerank).toEqual({ provider: 'sampling', topN: 20, timeoutMs: 5000 });
  });

  it('lets the remote strategy keep its embeddings beside an LLM reranker', () => {
    const r = yaml(
      `search:\n  strategy: remote\n  remote:\n    embeddings:\n      url: https://a\n      model: m\n  rerank:\n    provider: sampling\n`,
    );
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(r.config?.search.rerank?.provider).toBe('sampling');
  });
});

describe('search.rerank: error messages', () => {
  it.each<[string, string, Problem[]]>([
    [
      'no provider',
      rerank('    topN: 5\n'),
      only('search.rerank.provider', 'expected "sampling" or "openai-chat", got nothing'),
    ],
    [
      'an unknown provider',
      rerank('    provider: cohere\n'),
      only('search.rerank.provider', 'expected "sampling" or "openai-chat", got "cohere"'),
    ],
    [
      'openai-chat without url or model',
      rerank('    provider: openai-chat\n'),
      [
        { path: 'search.rerank.url', message: '"url" is required for provider "openai-chat"' },
        { path: 'search.rerank.model', message: '"model" is required for provider "openai-chat"' },
      ],
    ],
    [
      'a url from the environment that is not http (quoted as written)',
      rerank('    provider: openai-chat\n    url: ${env:CHAT_URL}\n    model: m\n'),
      only('search.rerank.url', '"${env:CHAT_URL}" is not an http:// or https:// URL'),
    ],
    [
      'an apiKey from an unset variable',
      rerank(`${CHAT}    apiKey: \${env:NOPE}\n`),
      only('search.rerank.apiKey', 'environment variable "NOPE" is not set'),
    ],
    [
      'topN of one',
      rerank('    provider: sampling\n    topN: 1\n'),
      only('search.rerank.topN', 'must be at least 2, got 1'),
    ],
    [
      'a timeout over a minute',
      rerank('    provider: sampling\n    timeoutMs: 60001\n'),
      only('search.rerank.timeoutMs', 'must be at most 60000, got 60001'),
    ],
    [
      'a misspelt key',
      rerank('    provider: sampling\n    top_n: 5\n'),
      only('search.rerank.top_n', 'unknown key "top_n"; did you mean "topN"?'),
    ],
    [
      'two rerankers (remote strategy)',
      `search:\n  strategy: remote\n  remote:\n    rerank:\n      url: https://a/rerank\n  rerank:\n    provider: sampling\n`,
      only(
        'search.rerank',
        'search.remote.rerank is set too; a search is reranked once, so keep one of them',
      ),
    ],
  ])('%s', (_name, text, errors) => {
    const r = yaml(text);
    expect(r.errors).toEqual(errors);
    expect(r.ok).toBe(false);
  });

  it('never prints a key read from the environment', () => {
    const r = yaml(
      rerank(
        '    provider: openai-chat\n    url: ${env:CHAT_URL}\n    model: m\n    apiKey: ${env:CHAT_KEY}\n',
      ),
    );
    expect(r.errors.map((e) => e.path)).toEqual(['search.rerank.url']);
    expect(JSON.stringify(r)).not.toMatch(/secret/);
  });
});
