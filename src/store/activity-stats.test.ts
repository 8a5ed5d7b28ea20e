import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityEvent } from './index.js';
import { testEngines } from './test-engines.js';

const MIN = 60_000;
const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const call = (
  key: string,
  at: number,
  durationMs: number,
  outcome: ActivityEvent['outcome'] = 'ok',
  project: string | null = 'p1',
) =>
  ({
    kind: 'call',
    key,
    server: key.split('/')[0]!,
    at,
    durationMs,
    outcome,
    ...(project === null ? {} : { project }),
  }) as const;

describe.each(testEngines(afterEach))('activity stats on $name', (engine) => {
  it('counts finished calls and errors per bucket, of one project, oldest first', async () => {
    const store = await engine.open();
    for (const e of [
      call('a/x', NOW - 2 * MIN + 5, 1),
      call('a/x', NOW - 2 * MIN + 59_999, 1, 'tool_error'),
      call('b/y', NOW + 10, 1, 'timeout'),
      call('b/y', NOW + 20, 1),
      call('a/x', NOW + 30, 1, 'ok', 'p2'), // another project
      call('a/x', NOW - 10 * MIN, 1), // before the range
    ])
      await store.activity.record(e);
    await store.activity.begin({ kind: 'call', key: 'a/x', server: 'a', at: NOW, project: 'p1' }); // in flight
    await store.activity.record({ kind: 'search', at: NOW, outcome: 'ok', durationMs: 1, project: 'p1' });
    const since = NOW - 5 * MIN;
    expect(await store.activity.callSeries({ since, bucketMs: MIN, project: 'p1' })).toEqual([
      { at: NOW - 2 * MIN, calls: 2, errors: 1 },
      { at: NOW, calls: 2, errors: 1 },
    ]);
    expect(await store.activity.callSeries({ since, bucketMs: MIN })).toEqual([
      { at: NOW - 2 * MIN, calls: 2, errors: 1 },
      { at: NOW, calls: 3, errors: 1 },
    ]);
  });

  it('gives each server its calls, error rate and nearest-rank p50 and p95', async () => {
    const store = await engine.open();
    // a: durations 1..20 (p50 = 10th = 10, p95 = 19th = 19); b: 3 calls (p50 = 2nd, p95 = 3rd).
    for (let i = 1; i <= 20; i++)
      await store.activity.record(call('a/x', NOW + i, 21 - i, i <= 5 ? 'timeout' : 'ok'));
    for (const d of [30, 10, 20]) await store.activity.record(call('b/y', NOW, d));
    await store.activity.record(call('c/z', NOW, 5, 'ok', 'p2'));
    expect(await store.activity.usageByServer({ project: 'p1' })).toEqual([
      { server: 'a', calls: 20, errors: 5, errorRate: 0.25, p50Ms: 10, p95Ms: 19 },
      { server: 'b', calls: 3, errors: 0, errorRate: 0, p50Ms: 20, p95Ms: 30 },
    ]);
    expect((await store.activity.usageByServer({ since: NOW + 16 })).map((s) => s.server)).toEqual(['a']);
    expect((await store.activity.usageByServer()).map((s) => s.server)).toEqual(['a', 'b', 'c']);
  });

  it("reads one project's tool usage and sessions; rows without a project are default's", async () => {
    const store = await engine.open();
    await store.activity.record(call('a/x', NOW, 4, 'ok', 'p1'));
    await store.activity.record(call('a/y', NOW, 4, 'ok', null));
    await store.activity.recordSession({
      at: NOW,
      durationMs: 5,
      tokensSent: 10,
      tokensListing: 100,
      project: 'p1',
    });
    await store.activity.recordSession({ at: NOW, durationMs: 5, tokensSent: 7, tokensListing: 50 });
    expect((await store.activity.usageByTool({ project: 'p1' })).map((u) => u.key)).toEqual(['a/x']);
    expect((await store.activity.usageByTool({ project: 'default' })).map((u) => u.key)).toEqual(['a/y']);
    expect(await store.activity.sessionStats({ project: 'p1' })).toEqual({
      sessions: 1,
      tokensSent: 10,
      tokensListing: 100,
    });
    expect(await store.activity.sessionStats({ project: 'default', since: NOW })).toEqual({
      sessions: 1,
      tokensSent: 7,
      tokensListing: 50,
    });
    expect(await store.activity.sessionStats({ since: NOW + 1 })).toEqual({
      sessions: 0,
      tokensSent: 0,
      tokensListing: 0,
    });
  });

  it('filters the audit by outcome and pages with a cursor in either order, ties broken by id', async () => {
    const store = await engine.open();
    const ats = [NOW, NOW, NOW + 1, NOW + 2, NOW + 2, NOW + 3];
    for (const [i, at] of ats.entries())
      await store.activity.record(call('a/x', at, 1, i % 2 ? 'tool_error' : 'ok'));
    const all = (await store.activity.audit()).map((r) => r.id);
    const paged: number[] = [];
    let after: { at: number; id: number } | undefined;
    for (;;) {
      const page = await store.activity.audit({ limit: 2, ...(after ? { after } : {}) });
      paged.push(...page.map((r) => r.id));
      const end = page.at(-1);
      if (page.length < 2 || !end) break;
      after = { at: Date.parse(end.at), id: end.id };
    }
    expect(paged).toEqual(all);
    const mid = (await store.activity.audit())[2]!;
    const cursor = { at: Date.parse(mid.at), id: mid.id };
    const older = [...(await store.activity.exportAudit({ after: cursor }))].map((r) => r.id);
    expect(older).toEqual(all.slice(0, 2).reverse());
    expect((await store.activity.audit({ outcome: 'tool_error' })).map((r) => r.outcome)).toEqual([
      'tool_error',
      'tool_error',
      'tool_error',
    ]);
  });
});
