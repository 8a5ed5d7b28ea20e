// Slow: team sign-in (issue 31) through the whole HTTP face on a real socket. An identity provider
// of our own (test/fixtures/oidc-issuer.ts) signs real tokens; a modern-era call_tool with one
// reaches the faults fixture and its audit row names the token's subject and client; Carte's own
// tokens keep working beside it; a refused token gets 401 with the invalid_token challenge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpApp, type HttpServerHandle } from '../../../src/http/index.js';
import { startIssuer, type TestIssuer } from '../../fixtures/oidc-issuer.js';
import { fixture, harness, MODERN_CALL_HEADERS, modernEnvelope, type Harness } from '../helpers.js';

const AUDIENCE = 'https://carte.example.com/mcp';

let h: Harness;
let idp: TestIssuer;
let app: HttpApp;
let server: HttpServerHandle;

beforeAll(async () => {
  idp = await startIssuer(AUDIENCE, 'ES256');
  h = await harness([fixture('faults', 'faults.mjs')]);
  await h.gateway.sync(ME);
  app = createHttpApp(
    { gateway: h.gateway, store: h.store },
    {
      oidc: {
        issuer: idp.url,
        audience: AUDIENCE,
        maxKeyStalenessHours: 24,
        projectClaim: 'carte_project',
        scopesClaim: 'scope',
        scopeMap: { 'carte:call': ['call'], 'carte:admin': ['admin'] },
        scopesSupported: ['carte:call'],
      },
    },
  );
  server = await listenHttp(app, { host: '127.0.0.1', port: 0 });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await app?.close();
  await h?.close();
  await idp?.close();
});

function callTool(token: string, text: string) {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { ...MODERN_CALL_HEADERS, authorization: `Bearer ${token}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'call_tool',
        arguments: { key: 'faults/echo', arguments: { text } },
        _meta: modernEnvelope('oidc-test'),
      },
    }),
  });
}

describe('team sign-in over HTTP', () => {
  it('names the provider in the protected-resource metadata', async () => {
    const res = await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`);
    expect(await res.json()).toEqual({
      resource: `${server.url}/mcp`,
      resource_name: 'Carte',
      bearer_methods_supported: ['header'],
      authorization_servers: [idp.url],
      scopes_supported: ['carte:call'],
    });
  });

  it("a provider's token reaches the tool, and its audit row has the subject and the client", async () => {
    const res = await callTool(await idp.sign({ sub: 'bob@example.com', azp: 'cursor' }), 'from bob');
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain('from bob');
    const rows = await h.store.activity.audit({ subject: 'bob@example.com', kinds: ['call'] });
    expect(rows).toMatchObject([
      {
        key: 'faults/echo',
        outcome: 'ok',
        project: 'default',
        subject: 'bob@example.com',
        client: 'cursor',
        tokenId: null,
      },
    ]);
  });

  it("Carte's own tokens keep working beside the provider's", async () => {
    const { token, id } = await createToken(h.store, { project: 'default', scopes: ['call'] }, Date.now());
    const res = await callTool(token, 'from a carte token');
    expect(res.status).toBe(200);
    const [row] = await h.store.activity.audit({ kinds: ['call'], limit: 1 });
    expect(row).toMatchObject({ tokenId: id, subject: null, client: null });
  });

  it('the REST audit route filters by subject', async () => {
    await callTool(await idp.sign({ sub: 'carol' }), 'from carol');
    const admin = await idp.sign({ sub: 'dana', scope: 'carte:admin' });
    const res = await fetch(`${server.url}/api/v1/audit?subject=carol`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.status).toBe(200);
    const { rows } = (await res.json()) as { rows: { subject: string; client: string }[] };
    expect(rows.map((r) => [r.subject, r.client])).toEqual([['carol', 'claude-code']]);
  });

  it('a refused token gets 401, the invalid_token challenge with why, and is never echoed', async () => {
    const token = await idp.sign({ aud: 'https://other.example.com/mcp' });
    const res = await callTool(token, 'nope');
    expect(res.status).toBe(401);
    const message = `the access token is for "https://other.example.com/mcp", not for this Carte ("${AUDIENCE}"); ask the provider for a token for ${AUDIENCE}`;
    expect(await res.json()).toEqual({ error: { code: 'unauthorized', message } });
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource", error="invalid_token", error_description="${message.replace(/"/g, "'")}"`,
    );
    const rows = await h.store.activity.audit({ limit: 100 });
    expect(JSON.stringify(rows)).not.toContain(token.split('.')[2]);
  });
});
