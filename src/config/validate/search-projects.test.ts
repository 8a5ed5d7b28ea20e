import { describe, expect, it } from 'vitest';
import { parseConfigText, type Problem } from '../index.js';

// projects.<id>.search (issue 29, item 3): the top-level search section's schema and rules, with
// every message naming the project's key path.
const env = { JINA_KEY: 'jina_secret-0123' };
const yaml = (text: string) => parseConfigText(text, { path: '/cfg/carte.yaml', env, dataDir: '/data' });
const only = (path: string, message: string): Problem[] => [{ path, message }];
/** A config with one server and project "team" whose search section is `body` (indented 6). */
const team = (body: string) =>
  `servers:\n  a:\n    command: x\nprojects:\n  team:\n    servers: [a]\n    search:\n${body}`;
const AT = 'projects.team.search';

describe('projects.<id>.search', () => {
  it('is absent unless written, and filled with the defaults when written', () => {
    const r = yaml(
      team('      strategy: remote\n      remote:\n        rerank:\n          url: https://a/rerank\n') +
        '  solo:\n    servers: [a]\n',
    );
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(r.config?.projects?.team?.search).toEqual({
      strategy: 'remote',
      remote: { timeoutMs: 1500, rerank: { url: 'https://a/rerank', topN: 20 } },
    });
    expect(r.config?.projects?.solo).not.toHaveProperty('search');
    expect(r.config?.search).toEqual({ strategy: 'lexical' });
  });

  it('expands variables as the top-level section does', () => {
    const r = yaml(
      team(
        '      strategy: remote\n      remote:\n        rerank:\n          url: https://a\n          apiKey: ${env:JINA_KEY}\n',
      ),
    );
    expect(r.config?.projects?.team?.search?.remote?.rerank?.apiKey).toBe('jina_secret-0123');
  });

  it('warns about providers its strategy does not use, naming the project', () => {
    const r = yaml(
      team('      strategy: hybrid\n      remote:\n        rerank:\n          url: https://a\n'),
    );
    expect(r).toMatchObject({ ok: true, errors: [] });
    expect(r.warnings).toEqual(only(`${AT}.remote`, `ignored: ${AT}.strategy is "hybrid", not "remote"`));
  });

  it.each<[string, string, Problem[]]>([
    [
      'an unknown strategy',
      '      strategy: fuzzy\n',
      only(`${AT}.strategy`, 'expected "lexical", "hybrid" or "remote", got "fuzzy"'),
    ],
    [
      'a misspelt strategy',
      '      strategy: hybird\n',
      only(
        `${AT}.strategy`,
        'expected "lexical", "hybrid" or "remote", got "hybird"; did you mean "hybrid"?',
      ),
    ],
    [
      'remote without its settings',
      '      strategy: remote\n',
      only(`${AT}.strategy`, `"remote" needs ${AT}.remote.embeddings or ${AT}.remote.rerank (or both)`),
    ],
    [
      'a misspelt key',
      '      strategi: lexical\n',
      only(`${AT}.strategi`, 'unknown key "strategi"; did you mean "strategy"?'),
    ],
    [
      'a misspelt provider key',
      '      strategy: remote\n      remote:\n        rerank:\n          url: https://a\n          top_n: 5\n',
      only(`${AT}.remote.rerank.top_n`, 'unknown key "top_n"; did you mean "topN"?'),
    ],
    [
      'a url that is not http',
      '      strategy: remote\n      remote:\n        rerank:\n          url: ftp://a\n',
      only(`${AT}.remote.rerank.url`, '"ftp://a" is not an http:// or https:// URL'),
    ],
    [
      'an apiKey from a VS Code input',
      '      strategy: remote\n      remote:\n        rerank:\n          url: https://a\n          apiKey: ${input:k}\n',
      only(
        `${AT}.remote.rerank.apiKey`,
        `${AT}.remote uses input "k" (\${input:k}), which is not supported; use \${env:NAME} instead`,
      ),
    ],
    [
      'two rerankers',
      '      strategy: remote\n      remote:\n        rerank:\n          url: https://a\n      rerank:\n        provider: sampling\n',
      only(`${AT}.rerank`, `${AT}.remote.rerank is set too; a search is reranked once, so keep one of them`),
    ],
    [
      'openai-chat without its model',
      '      rerank:\n        provider: openai-chat\n        url: https://a\n',
      only(`${AT}.rerank.model`, '"model" is required for provider "openai-chat"'),
    ],
    ['not an object', '      lexical\n', only(AT, 'expected an object, got "lexical"')],
  ])('%s is an error naming the key path', (_name, body, errors) => {
    const r = yaml(team(body));
    expect(r.errors).toEqual(errors);
    expect(r.ok).toBe(false);
  });

  it('reports the top-level section under its own path, as before', () => {
    expect(yaml('search:\n  strategy: remote\n').errors).toEqual(
      only('search.strategy', '"remote" needs search.remote.embeddings or search.remote.rerank (or both)'),
    );
  });
});
