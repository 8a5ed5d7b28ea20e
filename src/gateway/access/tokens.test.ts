import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { CarteError } from '../../errors.js';
import { TOKEN_CACHE_TTL_MS } from '../../store/index.js';
import {
  createToken,
  listTokens,
  openStore,
  resolveBearer,
  revokeProjectToken,
  revokeToken,
  type Store,
} from '../index.js';
import { tempStores } from '../../../test/e2e/helpers.js';

const { open: tempStore, track } = tempStores('carte-tokens-', afterEach);

const T0 = Date.UTC(2025, 0, 1, 12);
const DAY = 86_400_000;
const PROJECTS: ReadonlySet<string> = new Set(['web', 'ops']);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The error `fn` throws, which must be a CarteError. */
async function thrown(fn: () => Promise<unknown>): Promise<CarteError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CarteError);
    return err as CarteError;
  }
  throw new Error('expected a throw');
}

describe('createToken', () => {
  it('returns the secret once and stores only its sha256', async () => {
    const store = await tempStore();
    const created = await createToken(
      store,
      {
        project: 'web',
        name: 'ci',
        expiresInMs: 30 * DAY,
        scopes: ['call', 'search', 'call'],
        projects: PROJECTS,
      },
      T0,
    );
    expect(created.id).toMatch(/^tok_[0-9a-f]{8}$/);
    expect(created.token).toMatch(/^carte_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: 'ci',
      project: 'web',
      scopes: ['call', 'search'],
      createdAt: T0,
      expiresAt: T0 + 30 * DAY,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect((await store.tokens.get(created.id))?.hash).toBe(sha256(created.token));
    const { token: _token, ...info } = created;
    expect(await listTokens(store)).toEqual([info]);
    expect(JSON.stringify(await listTokens(store))).not.toContain(sha256(created.token));
  });

  it('makes a different secret and id each time, with no name and no expiry by default', async () => {
    const store = await tempStore();
    const a = await createToken(store, { project: 'default', scopes: ['search'] }, T0);
    const b = await createToken(store, { project: 'default', scopes: ['search'] }, T0);
    expect(a.token).not.toBe(b.token);
    expect(a.id).not.toBe(b.id);
    expect(a).toMatchObject({ name: null, expiresAt: null });
  });

  it.each([
    [{ scopes: [] }, 'a token needs at least one scope: search, call, admin'],
    [{ scopes: ['search', 'write'] }, 'unknown scope "write"; scopes are search, call, admin'],
    [{ project: 'wbe' }, 'unknown project "wbe"; did you mean "web"?'],
    [{ project: 'billing' }, 'unknown project "billing"; the configured projects are "web", "ops"'],
    [{ name: 'a\nb' }, 'token name must be 1 to 64 printable characters on one line'],
    [{ name: '' }, 'token name must be 1 to 64 printable characters on one line'],
    [{ expiresInMs: -5 }, 'token expiry must be a positive number of milliseconds, not "-5"'],
  ])('refuses %j', async (change, message) => {
    const store = await tempStore();
    const input = { project: 'web', scopes: ['search'], projects: PROJECTS, ...change };
    expect(await thrown(() => createToken(store, input, T0))).toMatchObject({ code: 'bad_input', message });
    expect(await listTokens(store)).toEqual([]);
  });
});

describe('resolveBearer', () => {
  async function setUp() {
    const store = await tempStore();
    const make = (project: string, scopes: string[], expiresInMs?: number) =>
      createToken(store, { project, scopes, ...(expiresInMs ? { expiresInMs } : {}) }, T0);
    const good = await make('web', ['call']);
    const expired = await make('web', ['search'], DAY);
    const revoked = await make('ops', ['admin']);
    await revokeToken(store, revoked.id, T0 + 1000);
    const orphan = await make('gone', ['search']);
    return { store, good, expired, revoked, orphan };
  }
  const resolve = (store: Store, header: string | undefined, now = T0 + DAY / 2) =>
    resolveBearer(store, header, { now, projects: PROJECTS });

  it('resolves a good token to its project, scopes and id, and records the use', async () => {
    const { store, good } = await setUp();
    expect(await resolve(store, `Bearer ${good.token}`)).toEqual({
      projectId: 'web',
      scopes: ['call'],
      tokenId: good.id,
    });
    expect((await resolve(store, `bearer   ${good.token}`)).tokenId).toBe(good.id);
    expect((await listTokens(store)).find((t) => t.id === good.id)?.lastUsedAt).toBe(T0 + DAY / 2);
    const projectsMap = new Map([['web', { servers: 'all' }]]);
    expect(
      (await resolveBearer(store, `Bearer ${good.token}`, { now: T0, projects: projectsMap })).projectId,
    ).toBe('web');
  });

  it('accepts an expiring token until its expiry', async () => {
    const { store, expired } = await setUp();
    expect((await resolve(store, `Bearer ${expired.token}`, T0 + DAY - 1)).projectId).toBe('web');
  });

  it.each([
    [
      'missing',
      () => undefined,
      'missing Authorization header; send "Authorization: Bearer <token>" (create one with "carte token create --project P")',
    ],
    [
      'empty',
      () => '  ',
      'missing Authorization header; send "Authorization: Bearer <token>" (create one with "carte token create --project P")',
    ],
    [
      'another scheme',
      (t: string) => `Basic ${t}`,
      'the Authorization header is not "Bearer <token>"; send the token after "Bearer "',
    ],
    [
      'no scheme',
      (t: string) => t,
      'the Authorization header is not "Bearer <token>"; send the token after "Bearer "',
    ],
    [
      'two words',
      (t: string) => `Bearer ${t} ${t}`,
      'the Authorization header is not "Bearer <token>"; send the token after "Bearer "',
    ],
    [
      'truncated',
      (t: string) => `Bearer ${t.slice(0, -1)}`,
      'the bearer token is malformed: a Carte token is "carte_" and 43 more characters; send the whole token',
    ],
    [
      'too long',
      (t: string) => `Bearer ${t}x`,
      'the bearer token is malformed: a Carte token is "carte_" and 43 more characters; send the whole token',
    ],
    [
      'no prefix',
      (t: string) => `Bearer ${t.slice(6)}`,
      'the bearer token is malformed: a Carte token is "carte_" and 43 more characters; send the whole token',
    ],
    [
      'unknown',
      (t: string) => `Bearer carte_${[...t.slice(6)].reverse().join('')}`,
      'the bearer token is not known to this Carte; create one with "carte token create --project P"',
    ],
  ])('refuses a %s header', async (_label, header: (t: string) => string | undefined, message) => {
    const { store, good } = await setUp();
    expect(await thrown(() => resolve(store, header(good.token)))).toMatchObject({
      code: 'unauthorized',
      message,
    });
  });

  it('refuses expired, revoked and removed-project tokens, naming only the public id', async () => {
    const { store, expired, revoked, orphan } = await setUp();
    const fail = (token: string, now?: number) => thrown(() => resolve(store, `Bearer ${token}`, now));
    expect(await fail(expired.token, T0 + DAY)).toMatchObject({
      code: 'unauthorized',
      message: `token ${expired.id} expired on 2025-01-02 12:00 UTC; ask for a new one`,
    });
    expect(await fail(revoked.token)).toMatchObject({
      code: 'unauthorized',
      message: `token ${revoked.id} was revoked on 2025-01-01 12:00 UTC; ask for a new one`,
    });
    expect(await fail(orphan.token)).toMatchObject({
      code: 'unauthorized',
      message: `token ${orphan.id} belongs to project "gone", which is no longer configured; ask for a new one`,
    });
  });

  it('never puts the token, any part of its secret, or its hash in an error', async () => {
    const { store, good, expired, revoked, orphan } = await setUp();
    const secrets = [good, expired, revoked, orphan].map((t) => t.token);
    const headers = secrets.flatMap((t) => [
      `Bearer ${t}`,
      `Basic ${t}`,
      t,
      `Bearer ${t} extra`,
      `Bearer ${t.slice(0, 30)}`,
      `Bearer ${t}${t}`,
      `Bearer ${t.slice(6)}`,
      `Bearer carte_${t.slice(7)}A`,
    ]);
    const messages: string[] = [];
    for (const header of headers) {
      for (const now of [T0, T0 + 2 * DAY]) {
        for (const projects of [PROJECTS, new Set<string>()]) {
          try {
            await resolveBearer(store, header, { now, projects });
          } catch (err) {
            const e = err as CarteError;
            messages.push(e.message, e.operatorMessage, String(e.stack), JSON.stringify(e.details ?? {}));
          }
        }
      }
    }
    messages.push((await thrown(() => revokeToken(store, `carte_${'x'.repeat(43)}`, T0))).message);
    expect(messages.length).toBeGreaterThan(100);
    const all = messages.join('\n');
    for (const token of secrets) {
      const secret = token.slice('carte_'.length);
      expect(all).not.toContain(sha256(token));
      // No 6-character piece of the secret (a random 6-character run matches by chance ~1e-10).
      for (let i = 0; i + 6 <= secret.length; i++) expect(all).not.toContain(secret.slice(i, i + 6));
    }
  });
});

describe('revokeToken', () => {
  it('revokes by id or by the secret itself, once', async () => {
    const store = await tempStore();
    const a = await createToken(store, { project: 'default', scopes: ['search'] }, T0);
    const b = await createToken(store, { project: 'default', scopes: ['search'] }, T0);
    expect(await revokeToken(store, a.id, T0 + 1)).toMatchObject({
      revoked: true,
      token: { id: a.id, revokedAt: T0 + 1 },
    });
    expect(await revokeToken(store, a.id, T0 + 2)).toMatchObject({
      revoked: false,
      token: { revokedAt: T0 + 1 },
    });
    expect(await revokeToken(store, b.token, T0 + 3)).toMatchObject({ revoked: true, token: { id: b.id } });
    expect((await revokeToken(store, b.id, T0 + 3)).token).not.toHaveProperty('hash');
  });

  it("an admin's revocation (REST) given a token where the id goes refuses it without echoing it", async () => {
    const store = await tempStore();
    const a = await createToken(store, { project: 'default', scopes: ['admin'] }, T0);
    const admin = { projectId: 'default', scopes: ['admin'], tokenId: a.id };
    const err = await thrown(() => revokeProjectToken(store, admin, a.token, T0));
    expect(err.message).toBe(
      'a token is revoked here by its id (tok_ and 8 characters, as listed), not by the token itself; nothing was revoked',
    );
    expect((await store.tokens.get(a.id))?.revokedAt).toBeNull();
  });
});

describe('resolveBearer with the token cache (TOKEN_CACHE_TTL_MS)', () => {
  const resolveAt = (store: Store, token: string, now: number) =>
    resolveBearer(store, `Bearer ${token}`, { now, projects: PROJECTS });

  it('refuses a token revoked in this process at once, though it was just resolved', async () => {
    const store = await tempStore();
    const t = await createToken(store, { project: 'web', scopes: ['call'] }, T0);
    expect((await resolveAt(store, t.token, T0 + 1)).tokenId).toBe(t.id);
    await revokeToken(store, t.id, T0 + 2);
    expect((await thrown(() => resolveAt(store, t.token, T0 + 3))).message).toMatch(/was revoked on/);
  });

  it('refuses a cached token from its expiry on, within the cache time', async () => {
    const store = await tempStore();
    const t = await createToken(store, { project: 'web', scopes: ['call'], expiresInMs: 100 }, T0);
    expect((await resolveAt(store, t.token, T0 + 99)).tokenId).toBe(t.id);
    expect((await thrown(() => resolveAt(store, t.token, T0 + 100))).message).toMatch(/expired on/);
  });

  it('sees a revocation by another connection (another process) once the cache time is over', async () => {
    const store = await tempStore();
    const other = await openStore(store.path);
    track(other);
    const t = await createToken(store, { project: 'web', scopes: ['call'] }, T0);
    expect((await resolveAt(store, t.token, T0)).tokenId).toBe(t.id);
    await revokeToken(other, t.id, T0 + 1);
    // Within the cache time the first connection may still accept it: that is the documented lag.
    expect((await resolveAt(store, t.token, T0 + TOKEN_CACHE_TTL_MS - 1)).tokenId).toBe(t.id);
    expect((await thrown(() => resolveAt(store, t.token, T0 + TOKEN_CACHE_TTL_MS))).message).toMatch(
      /was revoked/,
    );
  });

  it('asks the issued hook with the sha256 of the secret before the store', async () => {
    const store = await tempStore();
    const t = await createToken(store, { project: 'web', scopes: ['call'] }, T0);
    const asked: string[] = [];
    const login = Object.freeze({ projectId: 'ops', scopes: Object.freeze(['admin']), tokenId: 'login_1' });
    const issued = (hash: string) => (asked.push(hash), hash === sha256(t.token) ? login : undefined);
    expect(await resolveBearer(store, `Bearer ${t.token}`, { now: T0, projects: PROJECTS, issued })).toBe(
      login,
    );
    expect(asked).toEqual([sha256(t.token)]);
  });
});
