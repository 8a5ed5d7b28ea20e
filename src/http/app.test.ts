// The HTTP face through app.request(): no sockets, no upstream processes (a gateway whose one
// server is configured but never started). Flows with real clients are in test/e2e/http/http-mcp.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, revokeToken } from '../gateway/index.js';
import { harness, stdioServer, type Harness } from '../../test/e2e/helpers.js';
import { createHttpApp, LoginCodes, type HttpApp } from './index.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let h: Harness;
let clock = Date.now();
const now = () => clock;
beforeAll(async () => {
  // Never synced: /readyz must say so; nothing here spawns it.
  h = await harness([stdioServer('idle', ['-e', '0'])]);
});
afterAll(() => h.close());

function app(extra: Parameters<typeof createHttpApp>[1] = {}, anonymousProject?: string): HttpApp {
  return createHttpApp(
    {
      gateway: h.gateway,
      store: h.store,
      ...(anonymousProject ? { anonymousProject } : {}),
    },
    { now, ...extra },
  );
}

const initialize = (a: HttpApp, headers: Record<string, string> = {}) =>
  a.request('/mcp', { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(INIT) });

describe('Origin and Host guard', () => {
  it.each([
    ['a foreign Origin', { origin: 'http://evil.example.com' }],
    ['the opaque null Origin', { origin: 'null' }],
    ['another local port', { host: '127.0.0.1:7777', origin: 'http://127.0.0.1:9999' }],
    ['a rebound Host', { host: 'evil.example.com:7777' }],
  ])('refuses %s with 403 JSON', async (_name, headers) => {
    const res = await app().request('/healthz', { headers });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'denied' } });
  });

  it('names the refused Host', async () => {
    const res = await app().request('/healthz', { headers: { host: 'evil.example.com:7777' } });
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'Host "evil.example.com:7777" is not allowed: Carte listens on 127.0.0.1 and answers localhost, 127.0.0.1 and [::1] only (DNS rebinding protection); list other origins in http.allowedOrigins',
    );
  });

  it.each([
    ['no Origin', {}],
    ['its own page on localhost', { host: 'localhost:7777', origin: 'http://localhost:7777' }],
    ['its own page on [::1]', { host: '[::1]:7777', origin: 'http://[::1]:7777' }],
  ])('lets %s through', async (_name, headers) => {
    expect((await app().request('/healthz', { headers })).status).toBe(200);
  });

  it('lets a configured origin through, with CORS headers', async () => {
    const a = app({ allowedOrigins: ['https://carte.example.com'] });
    const res = await a.request('/healthz', {
      headers: { host: 'carte.example.com', origin: 'https://carte.example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://carte.example.com');
  });

  it('on a LAN bind, accepts an IP-literal same origin but not a DNS name', async () => {
    const a = app({ host: '0.0.0.0' });
    const ok = { host: '192.168.1.5:7777', origin: 'http://192.168.1.5:7777' };
    expect((await a.request('/healthz', { headers: ok })).status).toBe(200);
    const rebound = { host: 'evil.example.com:7777', origin: 'http://evil.example.com:7777' };
    expect((await a.request('/healthz', { headers: rebound })).status).toBe(403);
  });
});

describe('authentication', () => {
  const challenge = 'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource"';

  it('answers no token with 401, the challenge and the error body', async () => {
    const res = await initialize(app());
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(challenge);
    expect(await res.json()).toEqual({
      error: {
        code: 'unauthorized',
        message:
          'missing Authorization header; send "Authorization: Bearer <token>" (create one with "carte token create --project P")',
      },
    });
  });

  it.each([
    ['malformed', () => Promise.resolve('Bearer nope'), /^the bearer token is malformed/],
    ['unknown', () => Promise.resolve(`Bearer carte_${'A'.repeat(43)}`), /^the bearer token is not known/],
    [
      'revoked',
      async () => {
        const t = await createToken(h.store, { project: 'default', scopes: ['call'] }, clock);
        await revokeToken(h.store, t.id, clock);
        return `Bearer ${t.token}`;
      },
      /^token tok_[0-9a-f]{8} was revoked on /,
    ],
    [
      'expired',
      async () =>
        `Bearer ${(await createToken(h.store, { project: 'default', scopes: ['call'], expiresInMs: 1 }, clock - 10)).token}`,
      /^token tok_[0-9a-f]{8} expired on /,
    ],
    [
      'of a project no longer configured',
      async () =>
        `Bearer ${(await createToken(h.store, { project: 'gone', scopes: ['call'] }, clock)).token}`,
      /belongs to project "gone", which is no longer configured/,
    ],
  ])('answers a %s token with 401 invalid_token, never echoing it', async (_name, header, message) => {
    const authorization = await header();
    const res = await initialize(app(), { authorization });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { message: string } };
    expect(res.headers.get('www-authenticate')).toBe(
      `${challenge}, error="invalid_token", error_description="${body.error.message.replace(/"/g, "'")}"`,
    );
    expect(body.error.message).toMatch(message);
    expect(JSON.stringify(body)).not.toContain(authorization.slice(7));
  });

  it('a valid token opens a legacy session', async () => {
    const t = await createToken(h.store, { project: 'default', scopes: ['search'] }, clock);
    const res = await initialize(app(), { authorization: `Bearer ${t.token}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('anonymous access works only in the named project', async () => {
    const res = await initialize(app({}, 'default'));
    expect(res.status).toBe(200);
    // A bad token is still refused: no silent fall back to anonymous.
    expect((await initialize(app({}, 'default'), { authorization: 'Bearer nope' })).status).toBe(401);
  });

  it('serves the protected-resource metadata, in both forms', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const res = await app().request(path);
      expect(await res.json()).toEqual({
        resource: 'http://localhost/mcp',
        resource_name: 'Carte',
        bearer_methods_supported: ['header'],
        scopes_supported: ['search', 'call', 'admin'],
      });
    }
  });
});

describe('login link', () => {
  const post = (a: HttpApp, body: unknown) =>
    a.request('/api/v1/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('trades a code once for an admin token that works on /mcp and expires after 12 h', async () => {
    const login = new LoginCodes('default');
    const a = app({ login });
    const code = login.mint();
    const res = await post(a, { code });
    expect(res.status).toBe(200);
    const grant = (await res.json()) as {
      token: string;
      expiresAt: string;
      project: string;
      scopes: string[];
    };
    expect(grant).toMatchObject({ project: 'default', scopes: ['admin'] });
    expect(Date.parse(grant.expiresAt)).toBe(clock + 12 * 3_600_000);
    const again = await post(a, { code });
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({
      error: {
        message:
          'the login code is unknown or was already used; restart "carte serve --http" for a new link, or paste a token',
      },
    });
    expect((await initialize(a, { authorization: `Bearer ${grant.token}` })).status).toBe(200);
    const saved = clock;
    clock += 12 * 3_600_000;
    try {
      const late = await initialize(a, { authorization: `Bearer ${grant.token}` });
      expect(late.status).toBe(401);
      expect(((await late.json()) as { error: { message: string } }).error.message).toMatch(
        /^login token login_[0-9a-f]{8} expired/,
      );
    } finally {
      clock = saved;
    }
  });

  it('asks for a code when the body has none', async () => {
    const res = await post(app(), { nope: 1 });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'bad_input' } });
  });
});

describe('legacy sessions', () => {
  it('are bounded in count (503 past the limit) and expire when idle (404)', async () => {
    const a = app({ maxSessions: 2, sessionIdleMs: 60_000 }, 'default');
    const first = (await initialize(a)).headers.get('mcp-session-id')!;
    expect((await initialize(a)).status).toBe(200);
    const full = await initialize(a);
    expect(full.status).toBe(503);
    expect(await full.json()).toMatchObject({
      error: { message: 'Carte holds 2 sessions, its limit (http.maxSessions); retry later' },
    });
    const saved = clock;
    clock += 60_001;
    try {
      const gone = await a.request('/mcp', {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'mcp-session-id': first, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      expect(gone.status).toBe(404);
      // Expired sessions free their slots.
      expect((await initialize(a)).status).toBe(200);
      expect(a.mcp.sessions.size).toBe(1);
    } finally {
      clock = saved;
      await a.close();
    }
  });

  it('open only on initialize: another first request is 400 and keeps nothing', async () => {
    const a = app({}, 'default');
    const res = await a.request('/mcp', {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(res.status).toBe(400);
    expect((await a.request('/mcp', { headers: { accept: 'text/event-stream' } })).status).toBe(400);
    expect(a.mcp.sessions.size).toBe(0);
  });

  it('belong to the caller that opened them', async () => {
    const a = app();
    const mine = await createToken(h.store, { project: 'default', scopes: ['search'] }, clock);
    const theirs = await createToken(h.store, { project: 'default', scopes: ['search'] }, clock);
    const id = (await initialize(a, { authorization: `Bearer ${mine.token}` })).headers.get(
      'mcp-session-id',
    )!;
    const res = await a.request('/mcp', {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${theirs.token}`, 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
    await a.close();
  });
});

describe('probes and errors', () => {
  it('/healthz is up; /readyz names servers never discovered', async () => {
    expect(await (await app().request('/healthz')).json()).toEqual({ status: 'ok' });
    const res = await app().request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'not ready',
      reason: 'the catalog is not loaded: 1 server never discovered (idle)',
    });
  });

  it('answers an unknown API route with a JSON 404', async () => {
    const res = await app({}, 'default').request('/api/v1/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 'not_found', message: 'no route for GET /api/v1/nope' },
    });
  });

  it('refuses a non-JSON POST to /mcp with 415', async () => {
    const res = await app({}, 'default').request('/mcp', {
      method: 'POST',
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
  });
});
