import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type QuarantineRow, type Store, type ToolPin } from './index.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  stores.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});
function open(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'carte-trust-repo-'));
  dirs.push(dir);
  const store = openStore(join(dir, 'carte.db'));
  stores.push(store);
  return store;
}

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

describe('TrustRepo', () => {
  it('keeps pins by server, replaces one on upsert and deletes by key', () => {
    const { trust } = open();
    trust.upsertPin(pin('a/x'));
    trust.upsertPin(pin('a/y'));
    trust.upsertPin(pin('b/z'));
    trust.upsertPin(pin('a/x', 'h2'));
    expect([...trust.pinsByServer('a').keys()].sort()).toEqual(['a/x', 'a/y']);
    expect(trust.getPin('a/x')).toEqual(pin('a/x', 'h2'));
    trust.deletePins(['a/x', 'nope/none']);
    expect([...trust.pinsByServer('a').keys()]).toEqual(['a/y']);
    expect(trust.getPin('a/x')).toBeUndefined();
  });

  it('lists the quarantine oldest first, rewrites an entry on put and releases by key', () => {
    const { trust } = open();
    trust.putQuarantine(entry('a/x', 30));
    trust.putQuarantine(entry('b/y', 10, 'drift'));
    trust.putQuarantine(entry('a/z', 20));
    expect(trust.listQuarantine().map((q) => q.key)).toEqual(['b/y', 'a/z', 'a/x']);
    expect(trust.listQuarantine('a').map((q) => q.key)).toEqual(['a/z', 'a/x']);
    trust.putQuarantine({ ...entry('a/x', 30), kind: 'drift', reason: 'changed' });
    expect(trust.getQuarantine('a/x')).toEqual({ ...entry('a/x', 30), kind: 'drift', reason: 'changed' });
    trust.release(['a/x', 'a/none']);
    expect(trust.getQuarantine('a/x')).toBeUndefined();
    expect(trust.listQuarantine().map((q) => q.key)).toEqual(['b/y', 'a/z']);
  });

  it('forgets one server', () => {
    const { trust } = open();
    trust.upsertPin(pin('a/x'));
    trust.upsertPin(pin('b/x'));
    trust.putQuarantine(entry('a/y', 1));
    trust.putQuarantine(entry('b/y', 1));
    trust.clearServer('a');
    expect(trust.pinsByServer('a').size).toBe(0);
    expect(trust.listQuarantine().map((q) => q.key)).toEqual(['b/y']);
    expect(trust.pinsByServer('b').size).toBe(1);
  });

  it('refuses a kind the table does not know', () => {
    const { trust } = open();
    expect(() => trust.putQuarantine({ ...entry('a/x', 1), kind: 'other' as 'drift' })).toThrow(/CHECK/);
  });
});
