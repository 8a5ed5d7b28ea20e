import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from './index.js';
import { TOKEN_CACHE_MAX, TOKEN_CACHE_TTL_MS } from './tokens-repo.js';
import { tempStores } from '../../test/e2e/helpers.js';

const { open: tempStore, track } = tempStores('carte-tokens-', afterEach);

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
    track(reopened);
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
    track(other);
    expect(other.tokens.touchLastUsed('tok_aaaaaaaa', T0)).toBe(true);
    expect(store.tokens.touchLastUsed('tok_aaaaaaaa', T0 + 30_000)).toBe(false);
    expect(store.tokens.get('tok_aaaaaaaa')?.lastUsedAt).toBe(T0);
  });

  it('caches rows found by hash for TOKEN_CACHE_TTL_MS, never a miss, at most TOKEN_CACHE_MAX', () => {
    const store = tempStore();
    const other = openStore(store.path); // another process's connection: its writes do not clear the cache
    track(other);
    const hash = (i: number) => i.toString(16).padStart(64, '0');
    const id = (i: number) => `tok_${i.toString(16).padStart(8, '0')}`;
    store.tokens.insert(row(id(0), hash(0)));
    expect(store.tokens.findByHashCached(hash(0), T0)?.revokedAt).toBeNull();
    other.tokens.revoke(id(0), T0 + 1);
    expect(store.tokens.findByHashCached(hash(0), T0 + TOKEN_CACHE_TTL_MS - 1)?.revokedAt).toBeNull();
    expect(store.tokens.findByHashCached(hash(0), T0 + TOKEN_CACHE_TTL_MS)?.revokedAt).toBe(T0 + 1);
    // A miss is not kept; a row is, frozen.
    expect(store.tokens.findByHashCached(hash(1), T0)).toBeUndefined();
    other.tokens.insert(row(id(1), hash(1)));
    expect(Object.isFrozen(store.tokens.findByHashCached(hash(1), T0))).toBe(true);
    // A revocation through this connection drops every cached row at once.
    store.tokens.revoke(id(1), T0 + 2);
    expect(store.tokens.findByHashCached(hash(1), T0 + 3)?.revokedAt).toBe(T0 + 2);
    // Past the bound the oldest entry goes, and is read again.
    store.tokens.insert(row(id(2), hash(2)));
    expect(store.tokens.findByHashCached(hash(2), T0)?.revokedAt).toBeNull();
    other.tokens.revoke(id(2), T0 + 4);
    for (let i = 3; i < TOKEN_CACHE_MAX + 3; i++) {
      other.tokens.insert(row(id(i), hash(i)));
      store.tokens.findByHashCached(hash(i), T0);
    }
    expect(store.tokens.findByHashCached(hash(2), T0)?.revokedAt).toBe(T0 + 4);
  });
});
