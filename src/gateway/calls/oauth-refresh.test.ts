import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testEngines } from '../../store/test-engines.js';
import type { Store } from '../../store/index.js';
import { CarteOAuthProvider } from '../../upstream/oauth/provider.js';
import type { OAuthRecord, UpstreamTarget } from '../../upstream/index.js';
import { metadataOf, startTokenEndpoint, type TokenEndpoint } from '../../../test/fixtures/token-endpoint.js';
import { memoryLogger } from '../../../test/e2e/helpers.js';
import { Gateway, LOCAL_CALLER, type GatewayServer } from '../index.js';
import { storeVault } from './oauth-vault.js';

// Issue 41, secrets on a team's store: one refresh at a time across replicas (the store's lock,
// the record read again once it is held), a refused refresh makes the server needs_sign_in, and
// each refresh is an audit row without a token.
const KEY = { key: Buffer.alloc(32, 3).toString('base64') };
const SETTINGS = { grant: 'authorization_code' } as const;
const endpoints: TokenEndpoint[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((e) => e.close()));
  servers.splice(0).forEach((s) => s.close());
});

/** A record whose access token expires within the refresh margin, with refresh token r0. */
function expiring(ep: TokenEndpoint): OAuthRecord {
  return {
    tokens: {
      access_token: 'a0',
      token_type: 'Bearer',
      refresh_token: 'r0',
      scope: 'mcp:tools',
      expiresAt: Date.now() + 1_000,
    },
    client: { client_id: 'carte-test', redirect_uris: ['http://127.0.0.1:1/callback'] },
    discovery: {
      authorizationServerUrl: ep.issuer,
      authorizationServerMetadata: metadataOf(ep) as never,
    },
  };
}

async function authRows(
  engine: ReturnType<typeof testEngines>[number],
  store: Store,
): Promise<Record<string, unknown>[]> {
  return engine.sql(store, "SELECT server, outcome, detail FROM activity WHERE kind = 'auth' ORDER BY id");
}

describe.each(testEngines(afterEach))('upstream token refresh on $name', (engine) => {
  it('two replicas refreshing one sign-in at once spend its refresh token once and share the new token', async () => {
    const ep = await startTokenEndpoint('r0');
    endpoints.push(ep);
    ep.delayMs = 50; // both replicas ask while the first refresh is in flight
    const a = await engine.open({ secretKey: KEY });
    const b = await engine.reopen(a, { secretKey: KEY });
    await storeVault(a, 'notes').save(expiring(ep));
    const pa = await CarteOAuthProvider.open('notes', { vault: storeVault(a, 'notes'), settings: SETTINGS });
    const pb = await CarteOAuthProvider.open('notes', { vault: storeVault(b, 'notes'), settings: SETTINGS });
    const [ta, tb] = await Promise.all([pa.tokens(), pb.tokens()]);
    expect([ta?.access_token, tb?.access_token]).toEqual(['a1', 'a1']);
    expect({ refreshes: ep.refreshes, refused: ep.refused }).toEqual({ refreshes: 1, refused: 0 });
    expect((await b.upstreamAuth.get('notes'))?.meta).toMatchObject({
      refreshable: true,
      scope: 'mcp:tools',
    });
    await vi.waitFor(async () =>
      expect(await authRows(engine, a)).toEqual([
        { server: 'notes', outcome: 'ok', detail: 'upstream token refresh' },
      ]),
    );
    const rows = JSON.stringify(await engine.sql(a, 'SELECT * FROM activity'));
    expect(rows).not.toMatch(/"a[01]"|"r[01]"/);
  });

  it('a refused refresh forgets the tokens, says why and writes a needs_sign_in audit row', async () => {
    const ep = await startTokenEndpoint('r0');
    endpoints.push(ep);
    ep.refuse = true;
    const store = await engine.open({ secretKey: KEY });
    await storeVault(store, 'notes').save(expiring(ep));
    const p = await CarteOAuthProvider.open('notes', {
      vault: storeVault(store, 'notes'),
      settings: SETTINGS,
    });
    await expect(p.tokens()).rejects.toThrow(
      'the authorization server refused to refresh its sign-in: invalid_grant',
    );
    expect(((await store.upstreamAuth.get('notes'))?.record as OAuthRecord).tokens).toBeUndefined();
    await vi.waitFor(async () =>
      expect(await authRows(engine, store)).toEqual([
        { server: 'notes', outcome: 'needs_sign_in', detail: 'upstream token refresh: invalid_grant' },
      ]),
    );
  });

  it('a gateway whose sign-in cannot be refreshed shows the server needs_sign_in, naming carte auth login', async () => {
    const ep = await startTokenEndpoint('r0');
    endpoints.push(ep);
    ep.refuse = true;
    const store = await engine.open({ secretKey: KEY });
    await storeVault(store, 'notes').save(expiring(ep));
    const gateway = await Gateway.open({
      servers: [remote('notes', await refusing())],
      store,
      logger: memoryLogger(),
    });
    try {
      const [r] = await gateway.sync(LOCAL_CALLER);
      expect(r).toMatchObject({
        status: 'needs_sign_in',
        error:
          'server "notes" needs a sign-in (the authorization server refused to refresh its sign-in: invalid_grant); run `carte auth login notes`',
      });
      expect(gateway.listServers(LOCAL_CALLER)[0]).toMatchObject({ state: 'needs_sign_in' });
    } finally {
      await gateway.close();
    }
  });
});

/** An MCP endpoint that refuses every request with 401 (it is never reached with a refused refresh). */
async function refusing(): Promise<string> {
  const srv = createServer((_req, res) => res.writeHead(401).end());
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}/mcp`;
}

function remote(id: string, url: string): GatewayServer {
  const target: UpstreamTarget = { kind: 'remote', url, headers: {} };
  return {
    id,
    enabled: true,
    timeoutMs: 10_000,
    discoveryTimeoutMs: 10_000,
    idleTimeoutMs: 0,
    maxConcurrency: 4,
    maxQueue: 8,
    target,
    display: url,
    configHash: createHash('sha256').update(JSON.stringify(target)).digest('hex'),
  };
}
