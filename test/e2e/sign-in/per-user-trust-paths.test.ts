// Slow: the paths beside call_tool that a per-user server (`oauth.identity: per-user`, issue 41)
// must hold to its rule, "no call ever uses another person's token or a shared one", through the
// HTTP face on a real socket (test/fixtures/per-user-upstream.ts answers whose token each request
// carried; its resources, prompts and completions each name the person). run_code's inner calls
// run with the caller's own token; an unlinked caller's script gets the refusal; the passthrough
// requests (resources, prompts, completions, subscriptions) are not relayed, for anyone; a
// catalog sync made with one person's sign-in gives nothing of theirs to the others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { parseConfigText } from '../../../src/config/index.js';
import {
  CallbackDesk,
  Gateway,
  LOCAL_CALLER as ME,
  openStore,
  serversFromConfig,
  type Store,
} from '../../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpApp, type HttpServerHandle } from '../../../src/http/index.js';
import { startIssuer, type TestIssuer } from '../../fixtures/oidc-issuer.js';
import { startPerUserUpstream, type PerUserUpstream } from '../../fixtures/per-user-upstream.js';
import { memoryLogger, tempDir } from '../helpers.js';

const AUDIENCE = 'https://carte.example.com/mcp';
const KEY = Buffer.alloc(32, 43).toString('base64');
const tmp = tempDir('carte-peruser-paths-');

let idp: TestIssuer;
let up: PerUserUpstream;
let store: Store;
let gateway: Gateway;
let app: HttpApp;
let server: HttpServerHandle;
const logger = memoryLogger();
const open: Client[] = [];

beforeAll(async () => {
  idp = await startIssuer(AUDIENCE, 'ES256');
  up = await startPerUserUpstream();
  const yaml = `servers:
  notes:
    url: ${up.url}/mcp
    oauth: { identity: per-user }
exposure:
  code: { enabled: true }
auth:
  oidc: { issuer: "${idp.url}", audience: "${AUDIENCE}", scopeMap: { "carte:call": [call], "carte:admin": [admin] } }
`;
  const parsed = parseConfigText(yaml, { path: join(tmp.dir, 'carte.yaml'), env: {}, dataDir: tmp.dir });
  expect(parsed.errors).toEqual([]);
  store = await openStore(join(tmp.dir, 'carte.db'), { secretKey: { key: KEY } });
  gateway = await Gateway.open({ servers: serversFromConfig(parsed.config!), store, logger });
  await gateway.sync(ME);
  app = createHttpApp(
    { gateway, store },
    { oidc: parsed.config!.auth.oidc!, exposure: parsed.config!.exposure },
  );
  server = await listenHttp(app, { host: '127.0.0.1', port: 0 });
  gateway.callbackDesk = new CallbackDesk(`${server.url}/oauth/callback`);
  // Alice and Bob link their own accounts (by URL elicitation on a first call); Carol never does.
  for (const person of ['alice', 'bob']) {
    const c = await connect(await personOf(`${person}@example.com`), person);
    expect(await c.tool('call_tool', { key: 'notes/whoami', arguments: {} })).toEqual({
      error: false,
      text: `you are ${person}`,
    });
  }
}, 60_000);

afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await server?.stop();
  await app?.close();
  await gateway?.close();
  await store?.close();
  await up?.close();
  await idp?.close();
  tmp.cleanup();
});

const personOf = (sub: string, scope = 'openid carte:call') => idp.sign({ sub, scope });

/** An MCP client with `bearer`; with `person`, it declares URL elicitation and signs in as them. */
async function connect(bearer: string, person?: string) {
  const c = new Client(
    { name: 'per-user-paths', version: '1.0.0' },
    { capabilities: person ? { elicitation: { url: {} } } : {} },
  );
  const asked: unknown[] = [];
  if (person)
    c.setRequestHandler('elicitation/create', (req) => {
      const p = req.params as { url?: string };
      asked.push(p);
      void fetch(p.url!, { headers: { 'x-person': person }, redirect: 'follow' }).then((r) => r.text());
      return Promise.resolve({ action: 'accept' as const });
    });
  const headers = { authorization: `Bearer ${bearer}` };
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
  );
  open.push(c);
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = await c.callTool({ name, arguments: args });
    return { error: r.isError === true, text: (r.content as { text: string }[])[0]!.text };
  };
  return { c, asked, tool };
}

/** HOW_TO_LINK, as every per-user message names it. */
const HOW =
  "call it from an MCP client that supports URL elicitation, signed in to Carte through the identity provider, and it asks you to sign in; or press Link my account on the Servers page of Carte's web menu (/#/servers)";

describe("run_code's inner calls to a per-user server", () => {
  it("run with the caller's own token", async () => {
    const before = up.seen.length;
    for (const person of ['alice', 'bob', 'alice']) {
      const c = await connect(await personOf(`${person}@example.com`));
      expect(await c.tool('run_code', { code: "return await call('notes/whoami', {});" })).toEqual({
        error: false,
        text: JSON.stringify(`you are ${person}`),
      });
    }
    expect(up.seen.slice(before)).toEqual([
      { person: 'alice', token: up.issued.get('alice')![0] },
      { person: 'bob', token: up.issued.get('bob')![0] },
      { person: 'alice', token: up.issued.get('alice')![0] },
    ]);
  });

  it("an unlinked caller's script gets the sign-in refusal as an Error, never another's token", async () => {
    const before = up.seen.length;
    const carol = await connect(await personOf('carol@example.com'));
    const code = `try { return await call('notes/whoami', {}); } catch (e) { return { code: e.code, message: e.message }; }`;
    expect(await carol.tool('run_code', { code })).toEqual({
      error: false,
      text: JSON.stringify({
        code: 'needs_sign_in',
        message: `server "notes" needs you to sign in with your own account (it has per-user sign-in); ${HOW}`,
      }),
    });
    expect(up.seen.length).toBe(before);
  });

  it("the inner calls' audit rows name the caller's subject, under the script's row", async () => {
    const rows = await store.activity.audit({ kinds: ['call', 'code'], limit: 100 });
    const scripts = rows.filter((r) => r.kind === 'code');
    const inner = rows.filter((r) => r.kind === 'call' && r.parentId !== null);
    expect(inner.map((r) => [r.subject, r.key, r.outcome]).sort()).toEqual([
      ['alice@example.com', 'notes/whoami', 'ok'],
      ['alice@example.com', 'notes/whoami', 'ok'],
      ['bob@example.com', 'notes/whoami', 'ok'],
      ['carol@example.com', 'notes/whoami', 'needs_sign_in'],
    ]);
    for (const r of inner) {
      const parent = scripts.find((s) => s.id === r.parentId);
      expect(parent?.subject).toBe(r.subject);
    }
  });
});

describe("the passthrough requests of a per-user server (each person's own): not relayed, for anyone", () => {
  const uri = 'carte://notes/notes%3A%2F%2Fmine';
  const REFUSED =
    'server "notes" has per-user sign-in: its resources, prompts and completions are not relayed (each person\'s are their own); only its tools are served';
  const relayed = () =>
    up.requests.filter((r) => !['tools/call', 'tools/list', 'server/discover'].includes(r.method));

  it.each(['alice', 'carol'])('%s lists none of them, and naming one is refused', async (person) => {
    const c = (await connect(await personOf(`${person}@example.com`))).c;
    expect(await c.listResources()).toMatchObject({ resources: [] });
    expect(await c.listResourceTemplates()).toMatchObject({ resourceTemplates: [] });
    expect(await c.listPrompts()).toMatchObject({ prompts: [] });
    const argument = { name: 'id', value: '' };
    const refusals = await Promise.allSettled([
      c.readResource({ uri }),
      c.getPrompt({ name: 'notes/mine' }),
      c.complete({ ref: { type: 'ref/prompt', name: 'notes/mine' }, argument }),
      c.complete({ ref: { type: 'ref/resource', uri: 'carte://notes/notes%3A%2F%2F{id}' }, argument }),
      c.subscribeResource({ uri }),
      c.unsubscribeResource({ uri }),
    ]);
    for (const r of refusals)
      expect(r).toMatchObject({ status: 'rejected', reason: { code: -32602, message: REFUSED } });
    // A bare prompt name is looked up among the listed prompts, which hold none of the server's.
    await expect(c.getPrompt({ name: 'mine' })).rejects.toThrow('unknown prompt "mine"');
    expect(relayed()).toEqual([]);
  });

  it('a 2026-era listen stream naming one of its resources is refused', async () => {
    const c = new Client({ name: 'per-user-listen', version: '0' }, { versionNegotiation: { mode: 'auto' } });
    const headers = { authorization: `Bearer ${await personOf('alice@example.com')}` };
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
    );
    open.push(c);
    expect(c.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    await expect(c.listen({ resourceSubscriptions: [uri] })).rejects.toMatchObject({
      code: -32602,
      message: REFUSED,
    });
    expect(relayed()).toEqual([]);
  });
});

describe("a catalog sync made with one person's sign-in", () => {
  it("gives the others nothing of that person's: the listing's error is cut of their tokens", async () => {
    up.listError = 'listing refused';
    const report = await gateway.sync(ME).finally(() => (up.listError = undefined));
    // The most recently linked person's sign-in listed (upstream-auth.md, Teams).
    const whose = up.requests.filter((r) => r.method === 'tools/list').at(-1)!.person;
    expect(whose).toBe('bob');
    const tokens = up.issued.get(whose)!;
    const error = `server "notes" answered tools/list with error -32603: listing refused for bob with token [redacted]`;
    expect(report).toMatchObject([{ server: 'notes', status: 'failed', toolCount: 1, error }]);
    expect(gateway.listServers(ME)[0]).toMatchObject({ id: 'notes', lastError: error });

    const admin = await personOf('root@example.com', 'openid carte:admin carte:call');
    const seen: string[] = [];
    for (const who of [admin, await personOf('carol@example.com'), await personOf('alice@example.com')]) {
      const res = await fetch(`${server.url}/api/v1/servers`, {
        headers: { authorization: `Bearer ${who}` },
      });
      seen.push(await res.text());
      const c = await connect(who);
      seen.push(
        (await c.tool('browse_tools', {})).text,
        (await c.tool('search_tools', { query: 'whoami' })).text,
      );
    }
    const shown = seen.join('\n');
    // The admin's Servers row has the error, cut.
    expect(JSON.parse(seen[0]!)).toMatchObject({ servers: [{ id: 'notes', lastError: error }] });
    for (const t of tokens) expect(shown).not.toContain(t);
    for (const t of tokens) expect(logger.lines.join('\n')).not.toContain(t);
    // Only the admin reads the error; the others see the server usable, its cached tools listed.
    expect(seen.slice(3).join('\n')).not.toContain('listing refused');

    // The others' calls go on with their own tokens, or their own refusal.
    const alice = await connect(await personOf('alice@example.com'));
    expect(await alice.tool('call_tool', { key: 'notes/whoami', arguments: {} })).toEqual({
      error: false,
      text: 'you are alice',
    });
    expect(up.seen.at(-1)).toEqual({ person: 'alice', token: up.issued.get('alice')![0] });
  });
});
