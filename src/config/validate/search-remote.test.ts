import { describe, expect, it } from 'vitest';
import { parseConfigText, type Problem } from '../index.js';

const env = { JINA_KEY: 'jina_secret-0123', OPENAI_KEY: 'sk-secret-4567', RERANK_URL: 'ftp://x' };
const yaml = (text: string) => parseConfigText(text, { path: '/cfg/carte.yaml', env, dataDir: '/data' });
const only = (path: string, message: string): Problem[] => [{ path, message }];
const remote = (body: string) => `search:\n  strategy: remote\n  remote:\n${body}`;

describe('search.remote: defaults and variables', () => {
  it('fills the defaults and expands ${env:NAME} in url and apiKey', () => {
    const r = yaml(
      remote(
        '    embeddings:\n      url: https://api.openai.com\n      model: text-embedding-3-small\n      apiKey: ${env:OPENAI_KEY}\n' +
          '    rerank:\n      url: https://api.jina.ai/v1/rerank\n      apiKey: Bearer-less ${env:JINA_KEY}\n',
      ),
    );
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(r.config?.search).toEqual({
      strategy: 'remote',
      remote: {
        timeoutMs: 1500,
        embeddings: {
          url: 'https://api.openai.com',
          model: 'text-embedding-3-small',
          apiKey: 'sk-secret-4567',
        },
        rerank: { url: 'https://api.jina.ai/v1/rerank', apiKey: 'Bearer-less jina_secret-0123', topN: 20 },
      },
    });
  });

  it('accepts rerank alone, and every key set', () => {
    const r = yaml(
      remote(
        '    timeoutMs: 200\n    rerank:\n      url: http://127.0.0.1:9/rerank\n      model: m\n      topN: 5\n',
      ),
    );
    expect(r.config?.search.remote).toEqual({
      timeoutMs: 200,
      rerank: { url: 'http://127.0.0.1:9/rerank', model: 'm', topN: 5 },
    });
  });

  it('warns when providers are configured but the strategy does not use them', () => {
    const r = yaml('search:\n  strategy: hybrid\n  remote:\n    rerank:\n      url: https://a/rerank\n');
    expect(r).toMatchObject({ ok: true, errors: [] });
    expect(r.warnings).toEqual(only('search.remote', 'ignored: search.strategy is "hybrid", not "remote"'));
  });
});

describe('search.remote: error messages', () => {
  const needs = '"remote" needs search.remote.embeddings or search.remote.rerank (or both)';
  it.each<[string, string, Problem[]]>([
    ['remote without providers', 'search:\n  strategy: remote\n', only('search.strategy', needs)],
    ['remote with only a timeout', remote('    timeoutMs: 100\n'), only('search.strategy', needs)],
    [
      'embeddings without a model',
      remote('    embeddings:\n      url: https://a\n'),
      only('search.remote.embeddings.model', '"model" is required'),
    ],
    [
      'rerank without a url',
      remote('    rerank:\n      model: m\n'),
      only('search.remote.rerank.url', '"url" is required'),
    ],
    [
      'url not http',
      remote('    rerank:\n      url: ftp://a/rerank\n'),
      only('search.remote.rerank.url', '"ftp://a/rerank" is not an http:// or https:// URL'),
    ],
    [
      'url from the environment not http (quoted as written)',
      remote('    rerank:\n      url: ${env:RERANK_URL}\n'),
      only('search.remote.rerank.url', '"${env:RERANK_URL}" is not an http:// or https:// URL'),
    ],
    [
      'apiKey from an unset variable',
      remote('    rerank:\n      url: https://a\n      apiKey: ${env:NOPE}\n'),
      only('search.remote.rerank.apiKey', 'environment variable "NOPE" is not set'),
    ],
    [
      'apiKey from a VS Code input',
      remote('    embeddings:\n      url: https://a\n      model: m\n      apiKey: ${input:key}\n'),
      only(
        'search.remote.embeddings.apiKey',
        'search.remote uses input "key" (${input:key}), which is not supported; use ${env:NAME} instead',
      ),
    ],
    [
      'apiKey not a string (its value is not quoted)',
      remote('    rerank:\n      url: https://a\n      apiKey: 123456789\n'),
      only('search.remote.rerank.apiKey', 'expected a string, got a number'),
    ],
    [
      'dimension as text',
      remote('    embeddings:\n      url: https://a\n      model: m\n      dimension: "1536"\n'),
      only('search.remote.embeddings.dimension', 'expected a number, got "1536"'),
    ],
    [
      'timeout of zero',
      remote('    timeoutMs: 0\n    rerank:\n      url: https://a\n'),
      only('search.remote.timeoutMs', 'must be at least 1, got 0'),
    ],
    [
      'topN of one',
      remote('    rerank:\n      url: https://a\n      topN: 1\n'),
      only('search.remote.rerank.topN', 'must be at least 2, got 1'),
    ],
    [
      'misspelt provider',
      remote('    embedding:\n      url: https://a\n'),
      only('search.remote.embedding', 'unknown key "embedding"; did you mean "embeddings"?'),
    ],
    [
      'misspelt rerank key',
      remote('    rerank:\n      url: https://a\n      top_n: 5\n'),
      only('search.remote.rerank.top_n', 'unknown key "top_n"; did you mean "topN"?'),
    ],
  ])('%s', (_name, text, errors) => {
    const r = yaml(text);
    expect(r.errors).toEqual(errors);
    expect(r).toMatchObject({ ok: false, warnings: [] });
  });

  it('never prints a key read from the environment', () => {
    const r = yaml(
      remote(
        '    embeddings:\n      url: ftp://a\n      model: m\n      apiKey: ${env:OPENAI_KEY}\n' +
          '    rerank:\n      url: ${env:RERANK_URL}\n      apiKey: ${env:JINA_KEY}\n',
      ),
    );
    expect(r.errors.map((e) => e.path)).toEqual(['search.remote.embeddings.url', 'search.remote.rerank.url']);
    expect(JSON.stringify(r)).not.toMatch(/secret/);
  });
});
