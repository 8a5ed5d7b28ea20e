import { afterEach, describe, expect, it } from 'vitest';
import type { QuarantineRow, ToolPin } from './index.js';
import { testEngines } from './test-engines.js';

const pin = (key: string, pinHash = 'h1'): ToolPin => ({
  key,
  serverId: key.split('/')[0]!,
  pinHash,
  pinnedAt: 1000,
  content: `{"name":"${key}"}`,
});
const entry = (key: string, since: number, kind: QuarantineRow['kind'] = 'flagged'): QuarantineRow => ({
  key,
  serverId: key.split('/')[0]!,
  kind,
  reason: 'why',
  findings: [{ rule: 'hidden-unicode', where: 'description', excerpt: 'x\\u{200B}' }],
  since,
});

describe.each(testEngines(afterEach))('TrustRepo on $name', (engine) => {
  it('keeps pins by server, replaces one on upsert and deletes by key', async () => {
    const { trust } = await engine.open();
    await trust.upsertPin(pin('a/x'));
    await trust.upsertPin(pin('a/y'));
    await trust.upsertPin(pin('b/z'));
    await trust.upsertPin(pin('a/x', 'h2'));
    expect([...(await trust.pinsByServer('a')).keys()].sort()).toEqual(['a/x', 'a/y']);
    expect(await trust.getPin('a/x')).toEqual(pin('a/x', 'h2'));
    await trust.deletePins(['a/x', 'nope/none']);
    expect([...(await trust.pinsByServer('a')).keys()]).toEqual(['a/y']);
    expect(await trust.getPin('a/x')).toBeUndefined();
  });

  it('lists the quarantine oldest first, rewrites an entry on put and releases by key', async () => {
    const { trust } = await engine.open();
    await trust.putQuarantine(entry('a/x', 30));
    await trust.putQuarantine(entry('b/y', 10, 'drift'));
    await trust.putQuarantine(entry('a/z', 20));
    expect((await trust.listQuarantine()).map((q) => q.key)).toEqual(['b/y', 'a/z', 'a/x']);
    expect((await trust.listQuarantine('a')).map((q) => q.key)).toEqual(['a/z', 'a/x']);
    await trust.putQuarantine({ ...entry('a/x', 30), kind: 'drift', reason: 'changed' });
    expect(await trust.getQuarantine('a/x')).toEqual({
      ...entry('a/x', 30),
      kind: 'drift',
      reason: 'changed',
    });
    await trust.release(['a/x', 'a/none']);
    expect(await trust.getQuarantine('a/x')).toBeUndefined();
    expect((await trust.listQuarantine()).map((q) => q.key)).toEqual(['b/y', 'a/z']);
  });

  it('forgets one server', async () => {
    const { trust } = await engine.open();
    await trust.upsertPin(pin('a/x'));
    await trust.upsertPin(pin('b/x'));
    await trust.putQuarantine(entry('a/y', 1));
    await trust.putQuarantine(entry('b/y', 1));
    await trust.clearServer('a');
    expect((await trust.pinsByServer('a')).size).toBe(0);
    expect((await trust.listQuarantine()).map((q) => q.key)).toEqual(['b/y']);
    expect((await trust.pinsByServer('b')).size).toBe(1);
  });

  it('signs the quarantine: count, newest entry and keys’ length, seen by another store', async () => {
    const store = await engine.open();
    const other = await engine.reopen(store);
    expect(await store.trust.signature()).toBe('0:0:0');
    await other.trust.putQuarantine(entry('a/x', 30));
    await other.trust.putQuarantine(entry('b/yy', 10));
    expect(await store.trust.signature()).toBe('2:30:7');
    await other.trust.release(['a/x']);
    expect(await store.trust.signature()).toBe('1:10:4');
  });

  it('refuses a kind the table does not know', async () => {
    const { trust } = await engine.open();
    await expect(trust.putQuarantine({ ...entry('a/x', 1), kind: 'other' as 'drift' })).rejects.toThrow(
      /check constraint/i,
    );
  });
});
