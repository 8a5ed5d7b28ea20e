// No audit row left `started` (issue 40, item 4): a call whose process died reads `interrupted`
// at the next start, and a call of a process still running is left alone.
import { afterEach, describe, expect, it } from 'vitest';
import type { StartedEvent, Store } from './index.js';
import { testEngines } from './test-engines.js';

const NOW = Date.parse('2026-11-30T09:00:00.000Z');
/** Past any lease's time to live, so a lease not renewed since the test began is dead on PostgreSQL. */
const LATER = () => Date.now() + 3_600_000;
const CALL: StartedEvent = { kind: 'call', key: 'slow/wait', server: 'slow', at: NOW, project: 'p' };

const outcomes = async (store: Store) => (await store.activity.audit()).map((r) => [r.outcome, r.detail]);

describe.each(testEngines(afterEach))('leases on $name', (engine) => {
  it("leaves a running process's call `started` when another process starts", async () => {
    const first = await engine.open();
    await first.activity.beginGrouped(CALL);
    const second = await engine.reopen(first);
    expect(await outcomes(second)).toEqual([['started', null]]);
    expect(await engine.sql(second, 'SELECT count(*) AS n FROM leases')).toEqual([{ n: 1 }]);
  });

  it('sets the call of a process that went away `interrupted`, with the time of the start that found it', async () => {
    const first = await engine.open();
    const id = await first.activity.begin(CALL);
    await first.close(); // a call in flight: the lease stays behind, as after a kill
    const found = LATER();
    const second = await engine.reopen(first, { now: () => found });
    expect(await outcomes(second)).toEqual([['interrupted', new Date(found).toISOString()]]);
    expect(await engine.sql(second, 'SELECT count(*) AS n FROM leases')).toEqual([{ n: 0 }]);
    // Not a finished call: no duration to count in usage.
    expect(await second.activity.usageByTool()).toEqual([]);
    expect((await second.activity.audit({ outcome: 'interrupted' })).map((r) => r.id)).toEqual([id]);
  });

  it("a start interrupts only the dead process's calls, not its own or a live one's", async () => {
    const dead = await engine.open();
    const live = await engine.reopen(dead);
    await dead.activity.begin({ ...CALL, key: 'slow/dead' });
    await live.activity.begin({ ...CALL, key: 'slow/live' });
    await dead.close();
    if (engine.name === 'postgres') {
      // A live replica renews its lease; here the sweeping start's clock is set past the dead one's only.
      await engine.sql(
        live,
        `UPDATE leases SET renewed_at = renewed_at + 7200000 WHERE owner IN
        (SELECT owner FROM activity WHERE key = 'slow/live')`,
      );
    }
    const third = await engine.reopen(dead, { now: LATER });
    const rows = await third.activity.audit();
    expect(rows.map((r) => [r.key, r.outcome])).toEqual([
      ['slow/live', 'started'],
      ['slow/dead', 'interrupted'],
    ]);
  });

  it('a clean close ends the lease; a store that only reads takes none', async () => {
    const store = await engine.open();
    const reader = await engine.reopen(store);
    const id = await store.activity.begin(CALL);
    expect(await store.activity.finish(id, { outcome: 'ok', durationMs: 5 })).toBe(true);
    await store.close();
    await reader.activity.audit();
    expect(await engine.sql(reader, 'SELECT count(*) AS n FROM leases')).toEqual([{ n: 0 }]);
    const again = await engine.reopen(reader, { now: LATER });
    expect(await outcomes(again)).toEqual([['ok', null]]);
  });

  it('a call that finishes after being taken for dead reads how it ended', async () => {
    const first = await engine.open();
    const id = await first.activity.begin(CALL);
    await engine.sql(first, `UPDATE activity SET outcome = 'interrupted', detail = 'x' WHERE id = ${id}`);
    expect(await first.activity.finish(id, { outcome: 'ok', durationMs: 7 })).toBe(true);
    expect(await outcomes(first)).toEqual([['ok', null]]);
  });
});
