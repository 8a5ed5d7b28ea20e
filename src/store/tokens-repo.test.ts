import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from './index.js';

const dirs: string[] = [];
const stores: Store[] = [];
function tempStore(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'carte-tokens-'));
  dirs.push(dir);
  const store = openStore(join(dir, 'carte.db'));
  stores.push(store);
  return store;
}
afterEach(() => {
  stores.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const T0 = Date.UTC(2025, 0, 1);
const row = (id: string, hash: string, createdAt = T0) => ({
  id,
  name: `name of ${id}`,
  project: 'default',
  scopes: ['search', 'call'],
  hash,
  createdAt,
  expiresAt: createdAt + 86_400_000,
});

describe('TokensRepo', () => {
  it('inserts, finds by hash and lists oldest first, across a reopen', () => {
    const store = tempStore();
    store.tokens.insert(row('tok_bbbbbbbb', 'b'.repeat(64), T0 + 1));
    store.tokens.insert(row('tok_aaaaaaaa', 'a'.repeat(64), T0 + 2));
    const reopened = openStore(store.path);
    stores.push(reopened);
    expect(reopened.tokens.findByHash('b'.repeat(64))).toEqual({
      ...row('tok_bbbbbbbb', 'b'.repeat(64), T0 + 1),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(reopened.tokens.findByHash('c'.repeat(64))).toBeUndefined();
    expect(reopened.tokens.list().map((t) => t.id)).toEqual(['tok_bbbbbbbb', 'tok_aaaaaaaa']);
  });

  it('refuses a second token with the same hash', () => {
    const store = tempStore();
    store.tokens.insert(row('tok_aaaaaaaa', 'a'.repeat(64)));
    expect(() => store.tokens.insert(row('tok_bbbbbbbb', 'a'.repeat(64)))).toThrow(/UNIQUE/);
  });

  it('revokes once and keeps the first revocation time', () => {
    const store = tempStore();
    store.tokens.insert(row('tok_aaaaaaaa', 'a'.repeat(64)));
    expect(store.tokens.revoke('tok_aaaaaaaa', T0 + 10)).toBe(true);
    expect(store.tokens.revoke('tok_aaaaaaaa', T0 + 20)).toBe(false);
    expect(store.tokens.get('tok_aaaaaaaa')?.revokedAt).toBe(T0 + 10);
  });

  it.each([
    ['tok_aaaaaaab', 'unknown token id "tok_aaaaaaab"; did you mean "tok_aaaaaaaa"?'],
    ['tok_aaaaaaa', 'unknown token id "tok_aaaaaaa"; did you mean "tok_aaaaaaaa"?'],
    ['tok_12345678', 'unknown token id "tok_12345678"; run "carte token list" to see the ids'],
  ])('revoking unknown id %s is bad input naming it', (id, message) => {
    const store = tempStore();
    store.tokens.insert(row('tok_aaaaaaaa', 'a'.repeat(64)));
    expect(() => store.tokens.revoke(id, T0)).toThrow(
      expect.objectContaining({ code: 'bad_input', message }),
    );
  });

  it('writes the last use at most once a minute per token', () => {
    const store = tempStore();
    store.tokens.insert(row('tok_aaaaaaaa', 'a'.repeat(64)));
    store.tokens.insert(row('tok_bbbbbbbb', 'b'.repeat(64)));
    const touch = (id: string, at: number) => store.tokens.touchLastUsed(id, at);
    expect([
      touch('tok_aaaaaaaa', T0),
      touch('tok_aaaaaaaa', T0 + 59_999),
      touch('tok_bbbbbbbb', T0 + 1),
    ]).toEqual([true, false, true]);
    expect(store.tokens.get('tok_aaaaaaaa')?.lastUsedAt).toBe(T0);
    expect(touch('tok_aaaaaaaa', T0 + 60_000)).toBe(true);
    expect(store.tokens.get('tok_aaaaaaaa')?.lastUsedAt).toBe(T0 + 60_000);
  });

  it('skips the write when another process touched the token within the minute', () => {
    const store = tempStore();
    store.tokens.insert(row('tok_aaaaaaaa', 'a'.repeat(64)));
    const other = openStore(store.path);
    stores.push(other);
    expect(other.tokens.touchLastUsed('tok_aaaaaaaa', T0)).toBe(true);
    expect(store.tokens.touchLastUsed('tok_aaaaaaaa', T0 + 30_000)).toBe(false);
    expect(store.tokens.get('tok_aaaaaaaa')?.lastUsedAt).toBe(T0);
  });
});
