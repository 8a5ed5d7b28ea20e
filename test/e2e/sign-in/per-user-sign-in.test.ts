// Slow: per-user upstream identities (issue 41, "Teams"; `oauth.identity: per-user`) through the
// HTTP face on a real socket. Two people signed in to Carte through an identity provider of our
// own (test/fixtures/oidc-issuer.ts) call the same server (test/fixtures/per-user-upstream.ts,
// whose `whoami` answers whose token it got): each is asked to sign in by URL elicitation, each
// call carries that person's own upstream token, a person who has not linked gets the sign-in
// request or the error, never another's token, a Carte token is refused, and the audit rows name
// the subjects. Then the web menu's path (REST): a person links and unlinks their own account with
// POST /api/v1/servers/{id}/sign-in and /sign-out, and GET /servers tells each caller their own link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { parseConfigText } from '../../../src/config/index.js';
import {
  CallbackDesk,
  createToken,
  Gateway,
  LOCAL_CALLER as ME,
  openStore,
  serversFromConfig,
  signInThroughClient,
  signInToServer,
  upstreamAuthStatus,
  type Store,
} from '../../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpApp, type HttpServerHandle } from '../../../src/http/index.js';
import { startIssuer, type TestIssuer } from '../../fixtures/oidc-issuer.js';
import { startPerUserUpstream, type PerUserUpstream } from '../../fixtures/per-user-upstream.js';
import { memoryLogger, tempDir } from '../helpers.js';

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
  oidc: { issuer: "${idp.url}", audience: "${AUDIENCE}", scopeMap: { "carte:call": [call], "carte:search": [search] } }
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

/** HOW_TO_LINK, as every per-user message names it. */
const HOW =
  "call it from an MCP client that supports URL elicitation, signed in to Carte through the identity provider, and it asks you to sign in; or press Link my account on the Servers page of Carte's web menu (/#/servers)";

describe('a per-user server over HTTP', () => {
  it('before anyone links, the menu says how to link, not carte auth login (which refuses it)', async () => {
    const res = await fetch(`${server.url}/api/v1/servers`, {
      headers: { authorization: `Bearer ${await personOf('alice@example.com')}` },
    });
    const { servers } = (await res.json()) as { servers: { id: string; usable: boolean; reason?: string }[] };
    expect(servers).toMatchObject([
      {
        id: 'notes',
        usable: false,
        reason:
          "has per-user sign-in and nobody has linked their account yet; link yours by calling it from an MCP client that supports URL elicitation, or with Link my account on the Servers page of Carte's web menu",
      },
    ]);
  });

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
        text: `server "notes" needs you to sign in with your own account (it has per-user sign-in); ${HOW}`,
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
      `server "notes" has per-user sign-in: each person links their own account (${HOW}); carte auth login and logout handle only shared sign-ins`,
    );
  });

  it('an elicited link not finished in time says how to link again, not carte auth login', async () => {
    const gina = { projectId: 'default', scopes: ['call'], subject: 'gina@example.com' };
    const asker = { ask: () => Promise.resolve('accept'), complete: () => Promise.resolve() };
    const err = await signInThroughClient({ gateway, store }, gina, 'notes', asker, { timeoutMs: 1000 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe(
      `no sign-in to server "notes" came back within 1 s; call a tool of server "notes" again to be asked again, or press Link my account on the Servers page of Carte's web menu (/#/servers)`,
    );
  });
});

describe("linking one's own account through the REST API (the web menu's Servers page)", () => {
  const rest = async (bearer: string, method: 'GET' | 'POST', path: string) => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}` },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const signInOf = async (bearer: string) => {
    const { body } = await rest(bearer, 'GET', '/servers');
    return (body.servers as { id: string; signIn?: Record<string, unknown> }[])[0]!.signIn;
  };

  it("links the caller's own account, whose calls then carry their token; another person stays unlinked", async () => {
    const dave = await personOf('dave@example.com');
    const erin = await personOf('erin@example.com');
    const none = { scope: null, expiresAt: null, refreshable: false };
    expect(await signInOf(dave)).toEqual({ state: 'per_user', you: { state: 'not_linked', ...none } });

    const started = await rest(dave, 'POST', '/servers/notes/sign-in');
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ server: 'notes', state: 'waiting' });
    const url = new URL(started.body.authorizationUrl as string);
    expect(url.searchParams.get('redirect_uri')).toBe(`${server.url}/oauth/callback`);
    // Dave's browser: the fixture's authorization page signs in the person it names, then the
    // redirect lands on Carte's callback page.
    const page = await fetch(url, { headers: { 'x-person': 'dave' }, redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1>Signed in</h1>');
    await expect.poll(async () => ((await signInOf(dave))?.you as { state: string }).state).toBe('linked');
    expect((await signInOf(dave))?.you).toEqual({
      state: 'linked',
      scope: 'notes',
      expiresAt: expect.stringMatching(/^\d{4}-/) as string,
      refreshable: false,
    });

    const asDave = await connect(dave);
    const asErin = await connect(erin);
    try {
      expect(await asDave.whoami()).toEqual({ error: false, text: 'you are dave' });
      expect(up.seen.at(-1)).toEqual({ person: 'dave', token: up.issued.get('dave')![0] });
      const before = up.seen.length;
      expect(await asErin.whoami()).toEqual({
        error: true,
        text: `server "notes" needs you to sign in with your own account (it has per-user sign-in); ${HOW}`,
      });
      expect(up.seen.length).toBe(before);
      expect(await signInOf(erin)).toEqual({ state: 'per_user', you: { state: 'not_linked', ...none } });
    } finally {
      await asDave.c.close();
      await asErin.c.close();
    }
  });

  it('an admin sees how many linked, never whose; a Carte token may not link or unlink', async () => {
    const admin = (await createToken(store, { project: 'default', scopes: ['admin'] }, Date.now())).token;
    const shown = await signInOf(admin);
    expect(shown).toEqual({
      state: 'per_user',
      linked: 3, // alice, bob, dave
      you: { state: 'no_subject', scope: null, expiresAt: null, refreshable: false },
    });
    for (const action of ['sign-in', 'sign-out']) {
      const r = await rest(admin, 'POST', `/servers/notes/${action}`);
      expect(r).toEqual({
        status: 403,
        body: {
          error: {
            code: 'denied',
            message:
              'server "notes" has per-user sign-in: each person links their own account, which needs a caller signed in to Carte through the identity provider (auth.oidc), not a Carte token',
          },
        },
      });
    }
    // A person whose token has only the search scope may not link either.
    const searchOnly = await idp.sign({ sub: 'frank@example.com', scope: 'openid carte:search' });
    const r = await rest(searchOnly, 'POST', '/servers/notes/sign-in');
    expect(r.status).toBe(403);
    expect(JSON.stringify(r.body)).toContain('needs the call scope');
  });

  it("unlinks the caller's own account only; the audit names the subject", async () => {
    const dave = await personOf('dave@example.com');
    const ended = await rest(dave, 'POST', '/servers/notes/sign-out');
    expect(ended).toEqual({
      status: 200,
      body: { server: 'notes', forgotten: true, revocation: 'not_offered' },
    });
    expect(((await signInOf(dave))?.you as { state: string }).state).toBe('not_linked');
    const asDave = await connect(dave);
    try {
      expect(await asDave.whoami()).toMatchObject({ error: true });
    } finally {
      await asDave.c.close();
    }
    expect(((await signInOf(await personOf('alice@example.com')))?.you as { state: string }).state).toBe(
      'linked',
    );
    const again = await rest(dave, 'POST', '/servers/notes/sign-out');
    expect(again.body).toMatchObject({ forgotten: false });
    const auth = await store.activity.audit({ kinds: ['auth'], subject: 'dave@example.com', limit: 10 });
    expect(auth.map((r) => [r.detail, r.outcome])).toEqual([
      ['upstream sign-out (not_offered)', 'ok'],
      ['upstream sign-in (scope notes)', 'ok'],
    ]);
  });
});
