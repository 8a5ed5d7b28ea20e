import { afterEach, describe, expect, it } from 'vitest';
import { streamAudit, type ActivityEvent, type AuditQuery, type AuditRow } from './index.js';
import { testEngines } from './test-engines.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const keysOf = (rows: AuditRow[]) => rows.map((r) => r.key ?? r.kind);
const call = (key: string, at: number, durationMs: number, outcome: ActivityEvent['outcome'] = 'ok') =>
  ({ kind: 'call', key, server: key.split('/')[0]!, at, durationMs, outcome, resultBytes: 10 }) as const;

describe.each(testEngines(afterEach))('ActivityRepo audit columns on $name', (engine) => {
  const who = { project: 'p1', tokenId: 'tok_1', requestId: 'r1' };

  it('begins a call as `started` and finishes it by id, keeping the audit columns', async () => {
    const store = await engine.open();
    const id = await store.activity.begin({
      kind: 'call',
      key: 'a/x',
      server: 'a',
      at: NOW,
      argsDigest: 'abcd',
      ...who,
    });
    expect(typeof id).toBe('number');
    expect(await store.activity.audit()).toMatchObject([
      { id, outcome: 'started', durationMs: 0, resultBytes: null },
    ]);
    // In flight: not a success nor a failure in the usage numbers.
    expect(await store.activity.usageByTool()).toEqual([]);
    expect(await store.activity.finish(id, { outcome: 'ok', durationMs: 1.23456, resultBytes: 42 })).toBe(
      true,
    );
    expect(await store.activity.finish(id, { outcome: 'timeout', durationMs: 9 })).toBe(false); // once only
    expect(await store.activity.audit()).toEqual([
      {
        id,
        at: new Date(NOW).toISOString(),
        kind: 'call',
        requestId: 'r1',
        tokenId: 'tok_1',
        project: 'p1',
        key: 'a/x',
        server: 'a',
        outcome: 'ok',
        durationMs: 1.235,
        resultBytes: 42,
        argsDigest: 'abcd',
        args: null,
        detail: null,
        subject: null,
        client: null,
        parentId: null,
      },
    ]);
    expect(await store.activity.finish(id + 100, { outcome: 'ok', durationMs: 1 })).toBe(false);
  });

  it('grouped begins and finishes are committed when they resolve, each with its own id', async () => {
    const store = await engine.open();
    const other = await engine.reopen(store);
    const ids = await Promise.all(
      Array.from({ length: 8 }, () => store.activity.beginGrouped({ kind: 'call', key: 'a/x', server: 'a' })),
    );
    expect(new Set(ids).size).toBe(8);
    expect(await other.activity.count()).toBe(8);
    const done = await Promise.all(
      ids.map((id) => store.activity.finishGrouped(id, { outcome: 'ok', durationMs: 1 })),
    );
    expect(done).toEqual(ids.map(() => true));
    expect((await other.activity.usageByTool())[0]?.calls).toBe(8);
  });

  it('a group gives each begin the id of its own row, and a bad row fails only its caller', async () => {
    const { activity } = await engine.open();
    const keys = Array.from({ length: 12 }, (_, i) => `a/t${i}`);
    const begun = keys.map((key, i) =>
      activity.beginGrouped({ kind: 'call', key, server: 'a', at: NOW + i }),
    );
    const bad = activity.beginGrouped({ kind: 'call', server: 'a' } as never); // a call without its key
    await expect(bad).rejects.toThrow(/check constraint/i);
    const ids = await Promise.all(begun);
    const finished = await Promise.all([
      ...ids.map((id, i) => activity.finishGrouped(id, { outcome: 'ok', durationMs: i })),
      activity.finishGrouped(Math.max(...ids) + 1000, { outcome: 'ok', durationMs: 1 }),
    ]);
    expect(finished).toEqual([...ids.map(() => true), false]);
    const rows = await activity.audit({ limit: 100 });
    for (const [i, id] of ids.entries()) {
      expect(rows.find((r) => r.id === id)).toMatchObject({ key: keys[i], outcome: 'ok', durationMs: i });
    }
  });

  it('begins and finishes of one turn each get their own answer; a bad row fails only its caller', async () => {
    const { activity } = await engine.open();
    const first = await Promise.all(
      ['a/x', 'a/y'].map((key) => activity.beginGrouped({ kind: 'call', key, server: 'a' })),
    );
    // One turn, one statement: two finishes (one of a row that is not there) and two begins.
    const [finished, z, missing, w] = await Promise.all([
      activity.finishGrouped(first[0]!, { outcome: 'ok', durationMs: 3, resultBytes: 10 }),
      activity.beginGrouped({ kind: 'call', key: 'a/z', server: 'a' }),
      activity.finishGrouped(Math.max(...first) + 1000, { outcome: 'ok', durationMs: 1 }),
      activity.beginGrouped({ kind: 'call', key: 'a/w', server: 'a' }),
    ]);
    expect([finished, missing]).toEqual([true, false]);
    // A turn whose statement fails: each write alone, so the finish lands and the bad begin fails.
    const bad = activity.beginGrouped({ kind: 'call', server: 'a' } as never);
    const second = activity.finishGrouped(first[1]!, { outcome: 'tool_error', durationMs: 2 });
    await expect(bad).rejects.toThrow(/check constraint/i);
    expect(await second).toBe(true);
    const rows = await activity.audit({ limit: 10 });
    expect(rows.find((r) => r.id === first[0])).toMatchObject({ key: 'a/x', outcome: 'ok', durationMs: 3 });
    expect(rows.find((r) => r.id === first[1])).toMatchObject({ key: 'a/y', outcome: 'tool_error' });
    expect(rows.find((r) => r.id === z)).toMatchObject({ key: 'a/z', outcome: 'started' });
    expect(rows.find((r) => r.id === w)).toMatchObject({ key: 'a/w', outcome: 'started' });
    expect(z).toBeLessThan(w);
  });
  it("keeps a failed call's message in detail: finished alone, grouped, and in a turn with a begin", async () => {
    const { activity } = await engine.open();
    const alone = await activity.begin({ kind: 'call', key: 'a/x', server: 'a', at: NOW });
    expect(await activity.finish(alone, { outcome: 'timeout', durationMs: 1, detail: 'too slow' })).toBe(
      true,
    );
    const [x, y] = await Promise.all(
      ['a/y', 'a/z'].map((key) => activity.beginGrouped({ kind: 'call', key, server: 'a' })),
    );
    const done = await Promise.all([
      activity.finishGrouped(x!, { outcome: 'denied', durationMs: 1, detail: 'needs approval' }),
      activity.beginGrouped({ kind: 'call', key: 'a/w', server: 'a' }),
      activity.finishGrouped(y!, { outcome: 'ok', durationMs: 1 }),
    ]);
    expect([done[0], done[2]]).toEqual([true, true]);
    const detail = async (id: number) =>
      (await activity.audit({ limit: 10 })).find((r) => r.id === id)?.detail;
    expect([await detail(alone), await detail(x!), await detail(y!)]).toEqual([
      'too slow',
      'needs approval',
      null,
    ]);
  });

  it('a `started` row survives closing the store unfinished, and the next start reads it `interrupted`', async () => {
    const first = await engine.open();
    await first.activity.begin({ kind: 'call', key: 'a/x', server: 'a', args: '{"q":"[redacted]"}' });
    await first.close();
    // The clock past the lease's time to live (PostgreSQL; SQLite sees the lock file free at once).
    const again = await engine.reopen(first, { now: () => Date.now() + 3_600_000 });
    expect(await again.activity.audit()).toMatchObject([
      { outcome: 'interrupted', args: { q: '[redacted]' } },
    ]);
  });

  it('filters by time, project, key and kind, newest first, with a limit; export streams oldest first', async () => {
    const { activity } = await engine.open();
    await activity.record({ ...call('a/x', NOW - 3 * DAY, 1), project: 'p1' });
    await activity.record({ ...call('a/y', NOW - 2 * DAY, 1), project: 'p2' });
    await activity.record({
      kind: 'search',
      at: NOW - DAY,
      outcome: 'ok',
      durationMs: 2,
      detail: 'd1',
      project: 'p1',
    });
    await activity.record({ ...call('a/x', NOW, 1), project: 'p2' });
    const keys = (rows: { kind: string; key: string | null }[]) => rows.map((r) => r.key ?? r.kind);
    expect(keys(await activity.audit())).toEqual(['a/x', 'search', 'a/y', 'a/x']);
    expect(keys(await activity.audit({ since: NOW - 2 * DAY }))).toEqual(['a/x', 'search', 'a/y']);
    expect(keys(await activity.audit({ until: NOW - DAY }))).toEqual(['a/y', 'a/x']);
    expect(keys(await activity.audit({ project: 'p1' }))).toEqual(['search', 'a/x']);
    expect(keys(await activity.audit({ key: 'a/x' }))).toEqual(['a/x', 'a/x']);
    expect(keys(await activity.audit({ kinds: ['search'] }))).toEqual(['search']);
    expect(keys(await activity.audit({ kinds: ['search', 'call'], limit: 3 }))).toEqual([
      'a/x',
      'search',
      'a/y',
    ]);
    expect(keys(await activity.audit({ limit: 2 }))).toEqual(['a/x', 'search']);
    const it = await activity.exportAudit({ project: 'p2' });
    expect(it.next().value).toMatchObject({ key: 'a/y' });
    expect(keys([...it])).toEqual(['a/x']);
    await expect(activity.audit({ limit: 0 })).rejects.toThrow(
      'the audit limit must be a whole number of at least 1, not 0',
    );
  });

  it('streams an export of more rows than a page, all of them, oldest first, a keyset page at a time', async () => {
    const { activity } = await engine.open();
    // Ten rows; two share a time, so the page cursor must order by (at, id), not by time alone.
    const times = [NOW, NOW + 1, NOW + 1, NOW + 2, NOW + 3, NOW + 4, NOW + 4, NOW + 5, NOW + 6, NOW + 7];
    for (const [i, at] of times.entries())
      await activity.record({ ...call(`a/t${i}`, at, 1), project: 'p1' });
    await activity.record({ ...call('b/other', NOW + 3, 1), project: 'p2' });
    const reads: (number | undefined)[] = [];
    const counted = {
      exportAudit: (q?: AuditQuery) => {
        reads.push(q?.limit);
        return activity.exportAudit(q);
      },
    };
    const pages: string[][] = [];
    for await (const page of streamAudit(counted, { project: 'p1' }, 3)) pages.push(keysOf(page));
    expect(pages).toEqual([
      ['a/t0', 'a/t1', 'a/t2'],
      ['a/t3', 'a/t4', 'a/t5'],
      ['a/t6', 'a/t7', 'a/t8'],
      ['a/t9'],
    ]);
    expect(reads).toEqual([3, 3, 3, 3]); // never the whole log in one read
    const all = [];
    for await (const page of streamAudit(activity)) all.push(...page);
    const order = (r: AuditRow) => [Date.parse(r.at), r.id] as const;
    const sorted = [...all].sort((a, b) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1]);
    expect(all).toEqual(sorted);
    expect(keysOf(all).at(5)).toBe('b/other'); // at NOW + 3, after a/t4 (same time, lower id)
    expect(all).toHaveLength(11);
    const limited: string[] = [];
    for await (const page of streamAudit(activity, { project: 'p1', limit: 5 }, 2))
      limited.push(...keysOf(page));
    expect(limited).toEqual(['a/t0', 'a/t1', 'a/t2', 'a/t3', 'a/t4']);
  });

  it("keeps an identity provider's subject and client, single and grouped, and filters by subject", async () => {
    const { activity } = await engine.open();
    const alice = { subject: 'alice@example.com', client: 'claude-code' };
    await activity.record({ ...call('a/x', NOW - 2, 1), project: 'p1', ...alice });
    await activity.record({ ...call('a/y', NOW - 1, 1), project: 'p1', tokenId: 'tok_1' });
    const grouped = await Promise.all([
      activity.beginGrouped({ kind: 'call', key: 'a/z', server: 'a', at: NOW, subject: 'bob' }),
      activity.beginGrouped({ kind: 'call', key: 'a/w', server: 'a', at: NOW + 1, ...alice }),
    ]);
    expect(grouped).toHaveLength(2);
    const rows = await activity.audit({ subject: 'alice@example.com' });
    expect(rows.map((r) => [r.key, r.subject, r.client, r.tokenId])).toEqual([
      ['a/w', 'alice@example.com', 'claude-code', null],
      ['a/x', 'alice@example.com', 'claude-code', null],
    ]);
    expect((await activity.audit({ subject: 'bob' })).map((r) => [r.key, r.client])).toEqual([['a/z', null]]);
    expect(await activity.audit({ subject: 'carol' })).toEqual([]);
    expect((await activity.audit({ key: 'a/y' }))[0]).toMatchObject({ subject: null, client: null });
  });

  it("links a run_code script's calls to its code row, single and grouped", async () => {
    const { activity } = await engine.open();
    const run = await activity.beginGrouped({ kind: 'code', at: NOW, project: 'p1' });
    await activity.record({ ...call('a/x', NOW + 1, 1), parentId: run });
    await Promise.all([
      activity.beginGrouped({ kind: 'call', key: 'a/y', server: 'a', at: NOW + 2, parentId: run }),
      activity.beginGrouped({ kind: 'call', key: 'a/z', server: 'a', at: NOW + 3 }),
    ]);
    const rows = await activity.audit({ since: NOW });
    expect(rows.map((r) => [r.kind, r.key, r.parentId])).toEqual([
      ['call', 'a/z', null],
      ['call', 'a/y', run],
      ['call', 'a/x', run],
      ['code', null, null],
    ]);
  });

  it('prunes by the retention it was opened with', async () => {
    const store = await engine.open();
    await store.activity.record(call('a/x', Date.now() - 10 * DAY, 1));
    expect(await (await engine.reopen(store, { activity: { retentionDays: 30 } })).activity.count()).toBe(1);
    expect(await (await engine.reopen(store, { activity: { retentionDays: 7 } })).activity.count()).toBe(0);
  });
});
