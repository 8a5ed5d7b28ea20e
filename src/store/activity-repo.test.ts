import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore, PRUNE_EVERY, type ActivityEvent, type Store, type StoreOptions } from './index.js';
import { MIGRATIONS } from './migrations.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-24T12:00:00.000Z');

const dirs: string[] = [];
const stores: Store[] = [];
const tempPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-activity-'));
  dirs.push(dir);
  return join(dir, 'carte.db');
};
const open = (path = tempPath(), options?: StoreOptions) => {
  const store = openStore(path, options);
  stores.push(store);
  return store;
};
afterEach(() => {
  stores.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const call = (key: string, at: number, durationMs: number, outcome: ActivityEvent['outcome'] = 'ok') =>
  ({ kind: 'call', key, server: key.split('/')[0]!, at, durationMs, outcome, resultBytes: 10 }) as const;

describe('ActivityRepo', () => {
  it('sums calls, errors, the median duration and the last use per tool, most called first', () => {
    const { activity } = open();
    activity.record(call('a/x', NOW - 3000, 5));
    activity.record(call('a/x', NOW - 2000, 1, 'tool_error'));
    activity.record(call('a/x', NOW - 1000, 3, 'timeout'));
    activity.record(call('a/x', NOW - 4000, 2));
    activity.record(call('b/y', NOW - 500, 7.25));
    activity.record({ kind: 'search', at: NOW, outcome: 'ok', durationMs: 1 }); // not a call
    expect(activity.usageByTool()).toEqual([
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
    expect(activity.usageByTool({ since: NOW - 2000 }).map((u) => [u.key, u.calls, u.p50Ms])).toEqual([
      ['a/x', 2, 1],
      ['b/y', 1, 7.25],
    ]);
    expect(activity.count()).toBe(6);
  });

  it('usageByTool agrees with a brute-force computation', () => {
    const event = fc.record({
      key: fc.constantFrom('s/a', 's/b', 't/c'),
      at: fc.integer({ min: 0, max: 1000 }),
      durationMs: fc.integer({ min: 0, max: 100_000 }).map((n) => n / 1000),
      outcome: fc.constantFrom<ActivityEvent['outcome']>('ok', 'tool_error', 'timeout'),
    });
    const { activity } = open(tempPath(), { activity: { retentionDays: 1e6 } }); // 1970 is not expired here
    let round = 0;
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), fc.integer({ min: 0, max: 1000 }), (events, since) => {
        const base = ++round * 10_000; // each run reads only its own rows
        for (const e of events) activity.record(call(e.key, base + e.at, e.durationMs, e.outcome));
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
        expect(activity.usageByTool({ since: base + since })).toEqual(expected);
        activity.prune(Number.MAX_SAFE_INTEGER);
      }),
      { numRuns: 60 },
    );
  });

  it('hot scores halve every half-life and count only calls that reached the tool', () => {
    const { activity } = open();
    activity.record(call('a/x', NOW, 1));
    activity.record(call('a/x', NOW - 7 * DAY, 1, 'tool_error'));
    activity.record(call('b/y', NOW - 14 * DAY, 1));
    activity.record(call('b/y', NOW - 1, 1, 'upstream_unavailable')); // never reached the tool
    activity.record(call('c/z', NOW + 1000, 1)); // after `now`: not yet
    activity.record(call('d/w', NOW - 200 * DAY, 1)); // past 20 half-lives: not read
    expect(activity.hotScores({ now: NOW, halfLifeDays: 7 })).toEqual([
      { key: 'a/x', score: 1.5 },
      { key: 'b/y', score: 0.25 },
    ]);
    expect(activity.hotScores({ now: NOW, halfLifeDays: 14, limit: 1 })).toEqual([
      { key: 'a/x', score: 1 + Math.SQRT1_2 },
    ]);
    expect(() => activity.hotScores({ halfLifeDays: 0 })).toThrow(
      'the hot list needs a half-life above 0 days and a whole limit of at least 1, not 0 and 50',
    );
  });

  it('prune deletes exactly the rows older than its bound', () => {
    const { activity } = open();
    for (const at of [100, 200, 300]) activity.record(call('a/x', at, 1));
    expect(activity.prune(200)).toBe(1);
    expect(activity.prune(200)).toBe(0);
    expect(activity.usageByTool()[0]?.calls).toBe(2);
  });

  it('opening a store applies the retention: rows past retentionDays, then the oldest over maxRows', () => {
    const path = tempPath();
    const first = openStore(path);
    const now = Date.now();
    for (const days of [40, 20, 3, 2, 1]) first.activity.record(call('a/x', now - days * DAY, days));
    first.close();
    const second = open(path, { activity: { retentionDays: 30, maxRows: 3 } });
    expect(second.activity.usageByTool()[0]).toMatchObject({ calls: 3, p50Ms: 2 });
  });

  it('a store with nothing to prune is opened without a write', () => {
    const path = tempPath();
    open(path).activity.record(call('a/x', Date.now(), 1));
    // Another connection holds the write lock: an open that wrote would wait 5 s, then fail.
    const locker = new Database(path);
    locker.exec('BEGIN IMMEDIATE');
    try {
      expect(open(path).activity.count()).toBe(1);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
  });

  it('every PRUNE_EVERY writes, record prunes past the row cap', () => {
    const { activity } = open(tempPath(), { activity: { maxRows: 10 } });
    const now = Date.now();
    for (let i = 1; i < PRUNE_EVERY; i++) activity.record(call('a/x', now + i, 1));
    expect(activity.count()).toBe(PRUNE_EVERY - 1);
    activity.record(call('a/x', now + PRUNE_EVERY, 1));
    expect(activity.count()).toBe(10);
    expect(activity.usageByTool()[0]?.lastUsedAt).toBe(new Date(now + PRUNE_EVERY).toISOString());
  });

  it('refuses a call without its tool key, and bad retention options', () => {
    const { activity } = open();
    expect(() => activity.record({ kind: 'call', outcome: 'ok', durationMs: 1 })).toThrow(
      /CHECK constraint failed/,
    );
    expect(() => open(tempPath(), { activity: { retentionDays: 0 } })).toThrow(
      'activity retention needs retentionDays above 0 and a whole maxRows of at least 1, not 0 and 200000',
    );
  });

  it('migration 5 adds the activity table to a store at version 4', () => {
    const path = tempPath();
    const db = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 4)) db.exec(sql);
    db.pragma('user_version = 4');
    db.prepare("INSERT INTO servers (id, config_hash) VALUES ('s', 'h')").run();
    db.close();
    const store = open(path);
    expect(store.servers.get('s')?.configHash).toBe('h');
    store.activity.record(call('s/t', NOW, 1));
    expect(store.activity.count()).toBe(1);
    expect(store.checkIntegrity()).toBe('ok');
  });

  it('records session ends and sums their tokens, apart from the calls', () => {
    const { activity } = open();
    expect(activity.sessionStats()).toEqual({ sessions: 0, tokensSent: 0, tokensListing: 0 });
    activity.record(call('a/x', NOW - 3000, 5));
    activity.recordSession({ at: NOW - 2 * DAY, durationMs: 60_000, tokensSent: 900, tokensListing: 40_000 });
    activity.recordSession({ at: NOW - 1000, durationMs: 1.5, tokensSent: 350, tokensListing: 40_000 });
    activity.recordSession({ at: NOW, durationMs: 0, tokensSent: 0, tokensListing: 0 });
    expect(activity.sessionStats()).toEqual({ sessions: 3, tokensSent: 1250, tokensListing: 80_000 });
    expect(activity.sessionStats({ since: NOW - DAY })).toEqual({
      sessions: 2,
      tokensSent: 350,
      tokensListing: 40_000,
    });
    expect(activity.count()).toBe(4);
    expect(activity.usageByTool().map((u) => [u.key, u.calls])).toEqual([['a/x', 1]]);
    expect(activity.hotScores({ now: NOW }).map((h) => h.key)).toEqual(['a/x']);
  });

  it('a session row has no key or server, outcome ok, and refuses token counts that are not whole', () => {
    const path = tempPath();
    const { activity } = open(path);
    activity.recordSession({ at: NOW, durationMs: 2, tokensSent: 10, tokensListing: 20 });
    for (const [sent, listing] of [
      [1.5, 20],
      [10, -1],
      [Number.NaN, 0],
    ] as const) {
      expect(() =>
        activity.recordSession({ durationMs: 1, tokensSent: sent, tokensListing: listing }),
      ).toThrow(`session token counts must be whole numbers of at least 0, not ${sent} and ${listing}`);
    }
    const db = new Database(path, { readonly: true });
    expect(
      db
        .prepare(
          'SELECT kind, key, server, outcome, duration_ms, result_bytes, tokens_sent, tokens_listing FROM activity',
        )
        .all(),
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
    db.close();
  });

  it('migration 6 keeps the activity rows of a store at version 5; their token columns are NULL', () => {
    const path = tempPath();
    const db = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 5)) db.exec(sql);
    db.pragma('user_version = 5');
    db.prepare(
      "INSERT INTO activity (at, kind, key, server, outcome, duration_ms) VALUES (?, 'call', 's/t', 's', 'ok', 3)",
    ).run(NOW);
    db.close();
    const store = open(path);
    expect(store.activity.usageByTool().map((u) => [u.key, u.calls])).toEqual([['s/t', 1]]);
    expect(store.activity.sessionStats()).toEqual({ sessions: 0, tokensSent: 0, tokensListing: 0 });
    store.activity.recordSession({ at: NOW, durationMs: 1, tokensSent: 5, tokensListing: 50 });
    expect(store.activity.sessionStats()).toEqual({ sessions: 1, tokensSent: 5, tokensListing: 50 });
    expect(store.checkIntegrity()).toBe('ok');
  });
});

describe('ActivityRepo audit columns', () => {
  const who = { project: 'p1', tokenId: 'tok_1', requestId: 'r1' };

  it('begins a call as `started` and finishes it by id, keeping the audit columns', () => {
    const store = open();
    const id = store.activity.begin({
      kind: 'call',
      key: 'a/x',
      server: 'a',
      at: NOW,
      argsDigest: 'abcd',
      ...who,
    });
    expect(store.activity.audit()).toMatchObject([
      { id, outcome: 'started', durationMs: 0, resultBytes: null },
    ]);
    // In flight: not a success nor a failure in the usage numbers.
    expect(store.activity.usageByTool()).toEqual([]);
    expect(store.activity.finish(id, { outcome: 'ok', durationMs: 1.23456, resultBytes: 42 })).toBe(true);
    expect(store.activity.finish(id, { outcome: 'timeout', durationMs: 9 })).toBe(false); // once only
    expect(store.activity.audit()).toEqual([
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
      },
    ]);
    expect(store.activity.finish(id + 100, { outcome: 'ok', durationMs: 1 })).toBe(false);
  });

  it('a `started` row survives closing the store unfinished', () => {
    const path = tempPath();
    const first = open(path);
    first.activity.begin({ kind: 'call', key: 'a/x', server: 'a', args: '{"q":"[redacted]"}' });
    first.close();
    stores.splice(stores.indexOf(first), 1);
    expect(open(path).activity.audit()).toMatchObject([{ outcome: 'started', args: { q: '[redacted]' } }]);
  });

  it('filters by time, project, key and kind, newest first, with a limit; export streams oldest first', () => {
    const { activity } = open();
    activity.record({ ...call('a/x', NOW - 3 * DAY, 1), project: 'p1' });
    activity.record({ ...call('a/y', NOW - 2 * DAY, 1), project: 'p2' });
    activity.record({
      kind: 'search',
      at: NOW - DAY,
      outcome: 'ok',
      durationMs: 2,
      detail: 'd1',
      project: 'p1',
    });
    activity.record({ ...call('a/x', NOW, 1), project: 'p2' });
    const keys = (rows: { kind: string; key: string | null }[]) => rows.map((r) => r.key ?? r.kind);
    expect(keys(activity.audit())).toEqual(['a/x', 'search', 'a/y', 'a/x']);
    expect(keys(activity.audit({ since: NOW - 2 * DAY }))).toEqual(['a/x', 'search', 'a/y']);
    expect(keys(activity.audit({ until: NOW - DAY }))).toEqual(['a/y', 'a/x']);
    expect(keys(activity.audit({ project: 'p1' }))).toEqual(['search', 'a/x']);
    expect(keys(activity.audit({ key: 'a/x' }))).toEqual(['a/x', 'a/x']);
    expect(keys(activity.audit({ kinds: ['search'] }))).toEqual(['search']);
    expect(keys(activity.audit({ limit: 2 }))).toEqual(['a/x', 'search']);
    const it = activity.exportAudit({ project: 'p2' });
    expect(it.next().value).toMatchObject({ key: 'a/y' });
    expect(keys([...it])).toEqual(['a/x']);
    expect(() => activity.audit({ limit: 0 })).toThrow(
      'the audit limit must be a whole number of at least 1, not 0',
    );
  });

  it('prunes by the retention it was opened with', () => {
    const path = tempPath();
    open(path).activity.record(call('a/x', Date.now() - 10 * DAY, 1));
    expect(open(path, { activity: { retentionDays: 30 } }).activity.count()).toBe(1);
    expect(open(path, { activity: { retentionDays: 7 } }).activity.count()).toBe(0);
  });
});
