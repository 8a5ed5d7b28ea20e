// Slow: per-user upstream identities (issue 41, "Teams"; `oauth.identity: per-user`) through the
// HTTP face on a real socket. Two people signed in to Carte through an identity provider of our
// own (test/fixtures/oidc-issuer.ts) call the same server (test/fixtures/per-user-upstream.ts,
// whose `whoami` answers whose token it got): each is asked to sign in by URL elicitation, each
// call carries that person's own upstream token, a person who has not linked gets the sign-in
// request or the error, never another's token, a Carte token is refused, and the audit rows name
// the subjects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { parseConfigText } from '../../src/config/index.js';
import {
  CallbackDesk,
  createToken,
  Gateway,
  LOCAL_CALLER as ME,
  openStore,
  serversFromConfig,
  signInToServer,
  upstreamAuthStatus,
  type Store,
} from '../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpApp, type HttpServerHandle } from '../../src/http/index.js';
import { startIssuer, type TestIssuer } from '../fixtures/oidc-issuer.js';
import { startPerUserUpstream, type PerUserUpstream } from '../fixtures/per-user-upstream.js';
import { memoryLogger, tempDir } from './helpers.js';

const AUDIENCE = 'https://carte.example.com/mcp';
const KEY = Buffer.alloc(32, 41).toString('base64');
const tmp = tempDir('carte-peruser-');

let idp: TestIssuer;
let up: PerUserUpstream;
let store: Store;
let gateway: Gateway;
let app: HttpApp;
let server: HttpServerHandle;

beforeAll(async () => {
  idp = await startIssuer(AUDIENCE, 'ES256');
  up = await startPerUserUpstream();
  const yaml = `servers:
  notes:
    url: ${up.url}/mcp
    oauth: { identity: per-user }
auth:
  oidc: { issuer: "${idp.url}", audience: "${AUDIENCE}", scopeMap: { "carte:call": [call] } }
`;
  const parsed = parseConfigText(yaml, { path: join(tmp.dir, 'carte.yaml'), env: {}, dataDir: tmp.dir });
  expect(parsed.errors).toEqual([]);
  store = await openStore(join(tmp.dir, 'carte.db'), { secretKey: { key: KEY } });
  gateway = await Gateway.open({ servers: serversFromConfig(parsed.config!), store, logger: memoryLogger() });
  await gateway.sync(ME);
  app = createHttpApp({ gateway, store }, { oidc: parsed.config!.auth.oidc! });
  server = await listenHttp(app, { host: '127.0.0.1', port: 0 });
  gateway.callbackDesk = new CallbackDesk(`${server.url}/oauth/callback`);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await app?.close();
  await gateway?.close();
  await store?.close();
  await up?.close();
  await idp?.close();
  tmp.cleanup();
});

/**
 * An MCP client with `bearer`; with `person`, it declares URL elicitation and "opens" each page as
 * that person would (the upstream's authorization page signs in whoever `x-person` names).
 */
async function connect(bearer: string, person?: string) {
  const c = new Client(
    { name: 'per-user-test', version: '1.0.0' },
    { capabilities: person ? { elicitation: { url: {} } } : {} },
  );
  const asked: { url?: string; message?: string }[] = [];
  if (person)
    c.setRequestHandler('elicitation/create', (req) => {
      const p = req.params as { url?: string; message?: string };
      asked.push(p);
      void fetch(p.url!, { headers: { 'x-person': person }, redirect: 'follow' }).then((r) => r.text());
      return Promise.resolve({ action: 'accept' as const });
    });
  const headers = { authorization: `Bearer ${bearer}` };
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
  );
  const whoami = async () => {
    const r = await c.callTool({ name: 'call_tool', arguments: { key: 'notes/whoami', arguments: {} } });
    return { error: r.isError === true, text: (r.content as { text: string }[])[0]!.text };
  };
  return { c, asked, whoami };
}

const personOf = (sub: string) => idp.sign({ sub, scope: 'openid carte:call' });

describe('a per-user server over HTTP', () => {
  it("asks each person to sign in, then calls with that person's own token", async () => {
    const alice = await connect(await personOf('alice@example.com'), 'alice');
    const bob = await connect(await personOf('bob@example.com'), 'bob');
    try {
      expect(await alice.whoami()).toEqual({ error: false, text: 'you are alice' });
      expect(alice.asked).toHaveLength(1);
      expect(alice.asked[0]!.message).toBe(
        'Server "notes" needs you to sign in with your own account: open this page to let Carte use it for your calls.',
      );
      expect(await bob.whoami()).toEqual({ error: false, text: 'you are bob' });
      expect(bob.asked).toHaveLength(1);
      // Linked once: no more asking, and each call carries its caller's own token.
      expect(await alice.whoami()).toEqual({ error: false, text: 'you are alice' });
      expect(await bob.whoami()).toEqual({ error: false, text: 'you are bob' });
      expect(alice.asked).toHaveLength(1);
      expect(up.seen).toEqual([
        { person: 'alice', token: up.issued.get('alice')![0] },
        { person: 'bob', token: up.issued.get('bob')![0] },
        { person: 'alice', token: up.issued.get('alice')![0] },
        { person: 'bob', token: up.issued.get('bob')![0] },
      ]);
      expect(gateway.upstreams.perUser.size).toBe(2);
    } finally {
      await alice.c.close();
      await bob.c.close();
    }
  });

  it("a token the upstream refuses sends only its person back to sign in; the others' calls go on", async () => {
    const alice = await connect(await personOf('alice@example.com'), 'alice');
    const bob = await connect(await personOf('bob@example.com'), 'bob');
    try {
      up.revoke('bob');
      expect(await bob.whoami()).toEqual({ error: false, text: 'you are bob' });
      expect(bob.asked).toHaveLength(1); // this client's first asking: bob signs in again
      expect(up.issued.get('bob')).toHaveLength(2);
      expect(up.seen.at(-1)).toEqual({ person: 'bob', token: up.issued.get('bob')![1] });
      expect(await alice.whoami()).toEqual({ error: false, text: 'you are alice' });
      expect(alice.asked).toEqual([]);
      expect(gateway.listServers(ME)[0]).toMatchObject({ id: 'notes', status: 'success' });
    } finally {
      await alice.c.close();
      await bob.c.close();
    }
  });

  it("a person who has not linked gets the sign-in request's error, never another's token", async () => {
    const before = up.seen.length;
    const carol = await connect(await personOf('carol@example.com'));
    try {
      expect(await carol.whoami()).toEqual({
        error: true,
        text: 'server "notes" needs you to sign in with your own account (it has per-user sign-in); call it from an MCP client that supports URL elicitation, signed in to Carte through the identity provider, and it asks you to sign in',
      });
      expect(up.seen.length).toBe(before);
    } finally {
      await carol.c.close();
    }
  });

  it('a Carte token (no subject) is refused, and is not asked to sign in', async () => {
    const before = up.seen.length;
    const { token } = await createToken(store, { project: 'default', scopes: ['call'] }, Date.now());
    const robot = await connect(token, 'robot');
    try {
      expect(await robot.whoami()).toEqual({
        error: true,
        text: 'server "notes" has per-user sign-in: each caller uses their own account, so it needs a caller signed in to Carte through the identity provider (auth.oidc), not a Carte token or the local user',
      });
      expect(robot.asked).toEqual([]);
      expect(up.seen.length).toBe(before);
    } finally {
      await robot.c.close();
    }
  });

  it('the audit rows name the subjects; carte auth status counts the links, never whose', async () => {
    const calls = await store.activity.audit({ kinds: ['call'], limit: 100 });
    const of = (sub: string | null) =>
      calls.filter((r) => r.subject === sub && r.key === 'notes/whoami').map((r) => r.outcome);
    expect(of('alice@example.com')).toContain('ok');
    expect(of('bob@example.com')).toContain('ok');
    expect(of('carol@example.com')).toEqual(['needs_sign_in']);
    const auth = await store.activity.audit({ kinds: ['auth'], limit: 100 });
    // Bob signed in twice: once, then again after the upstream refused his token.
    expect(auth.map((r) => [r.subject, r.server, r.outcome]).sort()).toEqual([
      ['alice@example.com', 'notes', 'ok'],
      ['bob@example.com', 'notes', 'ok'],
      ['bob@example.com', 'notes', 'ok'],
    ]);
    const [status] = await upstreamAuthStatus({ gateway, store });
    expect(status).toMatchObject({ server: 'notes', state: 'per_user', identity: 'per-user', linked: 2 });
    expect(JSON.stringify(status)).not.toContain('alice');
  });

  it('carte auth login on a per-user server says where links are made', async () => {
    await expect(
      signInToServer({ gateway, store }, 'notes', { openUrl: () => Promise.resolve(), timeoutMs: 1000 }),
    ).rejects.toThrow(
      'server "notes" has per-user sign-in: each person links their own account (call it from an MCP client that supports URL elicitation, signed in to Carte through the identity provider, and it asks you to sign in); carte auth login and logout handle only shared sign-ins',
    );
  });
});
