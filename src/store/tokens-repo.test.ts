import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_CACHE_MAX, TOKEN_CACHE_TTL_MS } from './sqlite/tokens-repo.js';
import { testEngines } from './test-engines.js';

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

describe.each(testEngines(afterEach))('TokensRepo on $name', (engine) => {
  it('inserts, finds by hash and lists oldest first, across a reopen', async () => {
    const store = await engine.open();
    await store.tokens.insert(row('tok_bbbbbbbb', 'b'.repeat(64), T0 + 1));
    await store.tokens.insert(row('tok_aaaaaaaa', 'a'.repeat(64), T0 + 2));
    const reopened = await engine.reopen(store);
    expect(await reopened.tokens.findByHash('b'.repeat(64))).toEqual({
      ...row('tok_bbbbbbbb', 'b'.repeat(64), T0 + 1),
      lastUsedAt: null,
      revokedAt: null,
      ratePerMinute: null,
    });
    expect(await reopened.tokens.findByHash('c'.repeat(64))).toBeUndefined();
    expect((await reopened.tokens.list()).map((t) => t.id)).toEqual(['tok_bbbbbbbb', 'tok_aaaaaaaa']);
  });

  it('refuses a second token with the same hash', async () => {
    const store = await engine.open();
    await store.tokens.insert(row('tok_aaaaaaaa', 'a'.repeat(64)));
    // The driver's own words: SQLite "UNIQUE constraint failed", PostgreSQL "violates unique constraint".
    await expect(store.tokens.insert(row('tok_bbbbbbbb', 'a'.repeat(64)))).rejects.toThrow(
      /unique constraint/i,
    );
  });

  it('revokes once and keeps the first revocation time', async () => {
    const store = await engine.open();
    await store.tokens.insert(row('tok_aaaaaaaa', 'a'.repeat(64)));
    expect(await store.tokens.revoke('tok_aaaaaaaa', T0 + 10)).toBe(true);
    expect(await store.tokens.revoke('tok_aaaaaaaa', T0 + 20)).toBe(false);
    expect((await store.tokens.get('tok_aaaaaaaa'))?.revokedAt).toBe(T0 + 10);
  });

  it.each([
    ['tok_aaaaaaab', 'unknown token id "tok_aaaaaaab"; did you mean "tok_aaaaaaaa"?'],
    ['tok_aaaaaaa', 'unknown token id "tok_aaaaaaa"; did you mean "tok_aaaaaaaa"?'],
    ['tok_12345678', 'unknown token id "tok_12345678"; run "carte token list" to see the ids'],
  ])('revoking unknown id %s is bad input naming it', async (id, message) => {
    const store = await engine.open();
    await store.tokens.insert(row('tok_aaaaaaaa', 'a'.repeat(64)));
    await expect(store.tokens.revoke(id, T0)).rejects.toThrow(
      expect.objectContaining({ code: 'bad_input', message }),
    );
  });

  it('writes the last use at most once a minute per token', async () => {
    const store = await engine.open();
    await store.tokens.insert(row('tok_aaaaaaaa', 'a'.repeat(64)));
    await store.tokens.insert(row('tok_bbbbbbbb', 'b'.repeat(64)));
    const touch = (id: string, at: number) => store.tokens.touchLastUsed(id, at);
    expect([
      await touch('tok_aaaaaaaa', T0),
      await touch('tok_aaaaaaaa', T0 + 59_999),
      await touch('tok_bbbbbbbb', T0 + 1),
    ]).toEqual([true, false, true]);
    expect((await store.tokens.get('tok_aaaaaaaa'))?.lastUsedAt).toBe(T0);
    expect(await touch('tok_aaaaaaaa', T0 + 60_000)).toBe(true);
    expect((await store.tokens.get('tok_aaaaaaaa'))?.lastUsedAt).toBe(T0 + 60_000);
  });

  it('skips the write when another process touched the token within the minute', async () => {
    const store = await engine.open();
    await store.tokens.insert(row('tok_aaaaaaaa', 'a'.repeat(64)));
    const other = await engine.reopen(store);
    expect(await other.tokens.touchLastUsed('tok_aaaaaaaa', T0)).toBe(true);
    expect(await store.tokens.touchLastUsed('tok_aaaaaaaa', T0 + 30_000)).toBe(false);
    expect((await store.tokens.get('tok_aaaaaaaa'))?.lastUsedAt).toBe(T0);
  });

  it('caches rows found by hash for TOKEN_CACHE_TTL_MS, never a miss, at most TOKEN_CACHE_MAX', async () => {
    const store = await engine.open();
    const other = await engine.reopen(store); // another process's connection: its writes do not clear the cache
    const hash = (i: number) => i.toString(16).padStart(64, '0');
    const id = (i: number) => `tok_${i.toString(16).padStart(8, '0')}`;
    await store.tokens.insert(row(id(0), hash(0)));
    expect((await store.tokens.findByHashCached(hash(0), T0))?.revokedAt).toBeNull();
    await other.tokens.revoke(id(0), T0 + 1);
    expect((await store.tokens.findByHashCached(hash(0), T0 + TOKEN_CACHE_TTL_MS - 1))?.revokedAt).toBeNull();
    expect((await store.tokens.findByHashCached(hash(0), T0 + TOKEN_CACHE_TTL_MS))?.revokedAt).toBe(T0 + 1);
    // A miss is not kept; a row is, frozen.
    expect(await store.tokens.findByHashCached(hash(1), T0)).toBeUndefined();
    await other.tokens.insert(row(id(1), hash(1)));
    expect(Object.isFrozen(await store.tokens.findByHashCached(hash(1), T0))).toBe(true);
    // A revocation through this store drops every cached row at once, also one made in its transaction.
    await store.transaction((tx) => tx.tokens.revoke(id(1), T0 + 2));
    expect((await store.tokens.findByHashCached(hash(1), T0 + 3))?.revokedAt).toBe(T0 + 2);
    // Past the bound the oldest entry goes, and is read again.
    await store.tokens.insert(row(id(2), hash(2)));
    expect((await store.tokens.findByHashCached(hash(2), T0))?.revokedAt).toBeNull();
    await other.tokens.revoke(id(2), T0 + 4);
    const more = Array.from({ length: TOKEN_CACHE_MAX }, (_, i) => i + 3);
    await Promise.all(more.map((i) => other.tokens.insert(row(id(i), hash(i)))));
    for (const i of more) await store.tokens.findByHashCached(hash(i), T0);
    expect((await store.tokens.findByHashCached(hash(2), T0))?.revokedAt).toBe(T0 + 4);
  });
});
