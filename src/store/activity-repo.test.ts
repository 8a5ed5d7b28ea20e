import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PRUNE_EVERY, type ActivityEvent } from './index.js';
import { testEngines } from './test-engines.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-24T12:00:00.000Z');

const call = (key: string, at: number, durationMs: number, outcome: ActivityEvent['outcome'] = 'ok') =>
  ({ kind: 'call', key, server: key.split('/')[0]!, at, durationMs, outcome, resultBytes: 10 }) as const;

describe.each(testEngines(afterEach))('ActivityRepo on $name', (engine) => {
  it('sums calls, errors, the median duration and the last use per tool, most called first', async () => {
    const { activity } = await engine.open();
    await activity.record(call('a/x', NOW - 3000, 5));
    await activity.record(call('a/x', NOW - 2000, 1, 'tool_error'));
    await activity.record(call('a/x', NOW - 1000, 3, 'timeout'));
    await activity.record(call('a/x', NOW - 4000, 2));
    await activity.record(call('b/y', NOW - 500, 7.25));
    await activity.record({ kind: 'search', at: NOW, outcome: 'ok', durationMs: 1 }); // not a call
    expect(await activity.usageByTool()).toEqual([
      {
        key: 'a/x',
        calls: 4,
        errors: 2,
        errorRate: 0.5,
        p50Ms: 2, // the lower median of 1, 2, 3, 5
        lastUsedAt: new Date(NOW - 1000).toISOString(),
      },
      {
        key: 'b/y',
        calls: 1,
        errors: 0,
        errorRate: 0,
        p50Ms: 7.25,
        lastUsedAt: new Date(NOW - 500).toISOString(),
      },
    ]);
    expect((await activity.usageByTool({ since: NOW - 2000 })).map((u) => [u.key, u.calls, u.p50Ms])).toEqual(
      [
        ['a/x', 2, 1],
        ['b/y', 1, 7.25],
      ],
    );
    expect(await activity.count()).toBe(6);
  });

  it('usageByTool agrees with a brute-force computation', async () => {
    const event = fc.record({
      key: fc.constantFrom('s/a', 's/b', 't/c'),
      at: fc.integer({ min: 0, max: 1000 }),
      durationMs: fc.integer({ min: 0, max: 100_000 }).map((n) => n / 1000),
      outcome: fc.constantFrom<ActivityEvent['outcome']>('ok', 'tool_error', 'timeout'),
    });
    const { activity } = await engine.open({ activity: { retentionDays: 1e6 } }); // 1970 is not expired here
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 40 }),
        fc.integer({ min: 0, max: 1000 }),
        async (events, since) => {
          const base = ++round * 10_000; // each run reads only its own rows
          await Promise.all(
            events.map((e) => activity.record(call(e.key, base + e.at, e.durationMs, e.outcome))),
          );
          const inRange = events.filter((e) => e.at >= since);
          const keys = [...new Set(inRange.map((e) => e.key))];
          const expected = keys.map((key) => {
            const mine = inRange.filter((e) => e.key === key);
            const durations = mine.map((e) => e.durationMs).sort((a, b) => a - b);
            const errors = mine.filter((e) => e.outcome !== 'ok').length;
            return {
              key,
              calls: mine.length,
              errors,
              errorRate: errors / mine.length,
              p50Ms: durations[Math.ceil(durations.length / 2) - 1],
              lastUsedAt: new Date(base + Math.max(...mine.map((e) => e.at))).toISOString(),
            };
          });
          expected.sort((a, b) => b.calls - a.calls || (a.key < b.key ? -1 : 1));
          expect(await activity.usageByTool({ since: base + since })).toEqual(expected);
          await activity.prune(Number.MAX_SAFE_INTEGER);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('hot scores halve every half-life and count only calls that reached the tool', async () => {
    const { activity } = await engine.open();
    await activity.record(call('a/x', NOW, 1));
    await activity.record(call('a/x', NOW - 7 * DAY, 1, 'tool_error'));
    await activity.record(call('b/y', NOW - 14 * DAY, 1));
    await activity.record(call('b/y', NOW - 1, 1, 'upstream_unavailable')); // never reached the tool
    await activity.record(call('c/z', NOW + 1000, 1)); // after `now`: not yet
    await activity.record(call('d/w', NOW - 200 * DAY, 1)); // past 20 half-lives: not read
    expect(await activity.hotScores({ now: NOW, halfLifeDays: 7 })).toEqual([
      { key: 'a/x', score: 1.5 },
      { key: 'b/y', score: 0.25 },
    ]);
    expect(await activity.hotScores({ now: NOW, halfLifeDays: 14, limit: 1 })).toEqual([
      { key: 'a/x', score: 1 + Math.SQRT1_2 },
    ]);
    await expect(activity.hotScores({ halfLifeDays: 0 })).rejects.toThrow(
      'the hot list needs a half-life above 0 days and a whole limit of at least 1, not 0 and 50',
    );
  });

  it('hot scores of one project count its calls, and rows without a project as the default one', async () => {
    const { activity } = await engine.open();
    await activity.record({ ...call('a/x', NOW, 1), project: 'p1' });
    await activity.record({ ...call('a/y', NOW, 1), project: 'p2' });
    await activity.record(call('a/z', NOW, 1));
    const keys = async (project?: string) =>
      (await activity.hotScores({ now: NOW, ...(project === undefined ? {} : { project }) })).map(
        (h) => h.key,
      );
    expect(await keys()).toEqual(['a/x', 'a/y', 'a/z']);
    expect(await keys('p1')).toEqual(['a/x']);
    expect(await keys('default')).toEqual(['a/z']);
  });

  it('prune deletes exactly the rows older than its bound', async () => {
    const { activity } = await engine.open();
    for (const at of [100, 200, 300]) await activity.record(call('a/x', at, 1));
    expect(await activity.prune(200)).toBe(1);
    expect(await activity.prune(200)).toBe(0);
    expect((await activity.usageByTool())[0]?.calls).toBe(2);
  });

  it('opening a store applies the retention: rows past retentionDays, then the oldest over maxRows', async () => {
    const first = await engine.open();
    const now = Date.now();
    for (const days of [40, 20, 3, 2, 1]) await first.activity.record(call('a/x', now - days * DAY, days));
    await first.close();
    const second = await engine.reopen(first, { activity: { retentionDays: 30, maxRows: 3 } });
    expect((await second.activity.usageByTool())[0]).toMatchObject({ calls: 3, p50Ms: 2 });
  });

  it('every PRUNE_EVERY writes, record prunes past the row cap', async () => {
    const { activity } = await engine.open({ activity: { maxRows: 10 } });
    const now = Date.now();
    const first = Array.from({ length: PRUNE_EVERY - 1 }, (_, i) => call('a/x', now + i + 1, 1));
    await Promise.all(first.map((e) => activity.record(e)));
    expect(await activity.count()).toBe(PRUNE_EVERY - 1);
    await activity.record(call('a/x', now + PRUNE_EVERY, 1));
    expect(await activity.count()).toBe(10);
    expect((await activity.usageByTool())[0]?.lastUsedAt).toBe(new Date(now + PRUNE_EVERY).toISOString());
  });

  it('refuses a call without its tool key, and bad retention options', async () => {
    const { activity } = await engine.open();
    // The driver's own words: SQLite "CHECK constraint failed", PostgreSQL "violates check constraint".
    await expect(activity.record({ kind: 'call', outcome: 'ok', durationMs: 1 })).rejects.toThrow(
      /check constraint/i,
    );
    await expect(engine.open({ activity: { retentionDays: 0 } })).rejects.toThrow(
      'activity retention needs retentionDays above 0 and a whole maxRows of at least 1, not 0 and 200000',
    );
  });

  it('records session ends and sums their tokens, apart from the calls', async () => {
    const { activity } = await engine.open();
    expect(await activity.sessionStats()).toEqual({ sessions: 0, tokensSent: 0, tokensListing: 0 });
    await activity.record(call('a/x', NOW - 3000, 5));
    await activity.recordSession({
      at: NOW - 2 * DAY,
      durationMs: 60_000,
      tokensSent: 900,
      tokensListing: 40_000,
    });
    await activity.recordSession({ at: NOW - 1000, durationMs: 1.5, tokensSent: 350, tokensListing: 40_000 });
    await activity.recordSession({ at: NOW, durationMs: 0, tokensSent: 0, tokensListing: 0 });
    expect(await activity.sessionStats()).toEqual({ sessions: 3, tokensSent: 1250, tokensListing: 80_000 });
    expect(await activity.sessionStats({ since: NOW - DAY })).toEqual({
      sessions: 2,
      tokensSent: 350,
      tokensListing: 40_000,
    });
    expect(await activity.count()).toBe(4);
    expect((await activity.usageByTool()).map((u) => [u.key, u.calls])).toEqual([['a/x', 1]]);
    expect((await activity.hotScores({ now: NOW })).map((h) => h.key)).toEqual(['a/x']);
  });

  it('a session row has no key or server, outcome ok, and refuses token counts that are not whole', async () => {
    const store = await engine.open();
    const { activity } = store;
    await activity.recordSession({ at: NOW, durationMs: 2, tokensSent: 10, tokensListing: 20 });
    for (const [sent, listing] of [
      [1.5, 20],
      [10, -1],
      [Number.NaN, 0],
    ] as const) {
      await expect(
        activity.recordSession({ durationMs: 1, tokensSent: sent, tokensListing: listing }),
      ).rejects.toThrow(
        `session token counts must be whole numbers of at least 0, not ${sent} and ${listing}`,
      );
    }
    expect(
      await engine.sql(
        store,
        'SELECT kind, key, server, outcome, duration_ms, result_bytes, tokens_sent, tokens_listing FROM activity',
      ),
    ).toEqual([
      {
        kind: 'session',
        key: null,
        server: null,
        outcome: 'ok',
        duration_ms: 2,
        result_bytes: null,
        tokens_sent: 10,
        tokens_listing: 20,
      },
    ]);
  });
});
