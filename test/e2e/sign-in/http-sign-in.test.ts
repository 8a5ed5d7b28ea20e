import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigFile } from '../../../src/config/index.js';
import {
  CallbackDesk,
  createToken,
  Gateway,
  LOCAL_CALLER as ME,
  openStore,
  projectsFromConfig,
  serversFromConfig,
  type Store,
} from '../../../src/gateway/index.js';
import { createHttpApp, listenHttp } from '../../../src/http/index.js';
import { FIXTURES, memoryLogger, startSdkExample, tempDir } from '../helpers.js';

// Slow: issue 41, the REST face of the web menu's Sign in and Sign out. A gateway over HTTP with
// the MCP SDK's OAuth example (`notes`), the same example without OAuth (`open`) and a stdio
// fixture (`local`): an admin starts a sign-in, follows the authorization URL (the example approves
// at once) back to the face's /oauth/callback, and signs out; every other caller and server is refused.
const KEY = Buffer.alloc(32, 29).toString('base64');
const tmp = tempDir('carte-http-sign-in-');
const stops: (() => unknown)[] = [];
let base = '';
let store: Store;
let gateway: Gateway;
const tokens: Record<'admin' | 'call' | 'other', string> = { admin: '', call: '', other: '' };

beforeAll(async () => {
  const [notes, open] = await Promise.all([startSdkExample({ oauth: true }), startSdkExample()]);
  stops.push(notes.stop, open.stop);
  const config = join(tmp.dir, 'carte.yaml');
  writeFileSync(
    config,
    [
      'servers:',
      `  notes: { url: ${JSON.stringify(notes.url)} }`,
      `  open: { url: ${JSON.stringify(open.url)} }`,
      `  local: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(join(FIXTURES, 'paginated.mjs'))}] }`,
      'projects:',
      '  default: { servers: [notes, open, local] }',
      '  other: { servers: [local] }',
      '',
    ].join('\n'),
  );
  const loaded = loadConfigFile(config, { env: {} }).config!;
  store = await openStore(join(tmp.dir, 'carte.db'), { secretKey: { key: KEY } });
  gateway = await Gateway.open({
    servers: serversFromConfig(loaded),
    projects: projectsFromConfig(loaded),
    store,
    logger: memoryLogger(),
  });
  await gateway.sync(ME);
  const app = createHttpApp({ gateway, store, env: {}, dataDir: tmp.dir });
  const server = await listenHttp(app, { host: '127.0.0.1', port: 0 });
  gateway.callbackDesk = new CallbackDesk(`${server.url}/oauth/callback`);
  stops.unshift(
    () => server.stop(),
    () => app.close(),
    () => gateway.close(),
    () => store.close(),
  );
  base = server.url;
  const make = async (project: string, scope: string) =>
    (await createToken(store, { project, scopes: [scope] }, Date.now())).token;
  tokens.admin = await make('default', 'admin');
  tokens.call = await make('default', 'call');
  tokens.other = await make('other', 'admin');
}, 60_000);

afterAll(async () => {
  for (const stop of stops) await stop();
  tmp.cleanup();
});

async function post(path: string, who: keyof typeof tokens) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens[who]}` },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function signInOf(id: string, who: keyof typeof tokens = 'admin') {
  const res = await fetch(`${base}/api/v1/servers`, { headers: { authorization: `Bearer ${tokens[who]}` } });
  const { servers } = (await res.json()) as { servers: { id: string; signIn?: Record<string, unknown> }[] };
  return servers.find((s) => s.id === id)?.signIn;
}

describe('REST sign-in and sign-out of a remote server', () => {
  it('refuses a caller without the admin scope with 403 and the usual error body', async () => {
    for (const action of ['sign-in', 'sign-out']) {
      const r = await post(`/servers/notes/${action}`, 'call');
      expect(r.status).toBe(403);
      expect(r.body).toEqual({
        error: { code: 'denied', message: expect.stringContaining('needs the admin scope') as string },
      });
    }
    // A non-admin sees the state, never the scopes or expiry.
    expect(await signInOf('notes', 'call')).toEqual({ state: 'needs_sign_in' });
  });

  it('names a stdio server, one that needs no sign-in, and an unknown or unseen one', async () => {
    const stdio = await post('/servers/local/sign-in', 'admin');
    expect(stdio.status).toBe(400);
    expect((stdio.body.error as { message: string }).message).toBe(
      'server "local" is started by Carte (stdio); only HTTP servers sign in',
    );
    expect((await post('/servers/local/sign-out', 'admin')).status).toBe(400);
    const open = await post('/servers/open/sign-in', 'admin');
    expect(open.status).toBe(400);
    expect((open.body.error as { message: string }).message).toMatch(
      /^server "open" answered HTTP 200 without asking for a sign-in; there is nothing to sign in to$/,
    );
    expect((await post('/servers/nope/sign-in', 'admin')).status).toBe(404);
    // Another project's admin cannot reach this project's server: answered as unknown.
    expect((await post('/servers/notes/sign-in', 'other')).status).toBe(404);
    expect(await signInOf('open')).toMatchObject({ state: 'not_needed' });
    expect(await signInOf('local')).toBeUndefined();
  });

  it('starts a sign-in that comes back to /oauth/callback, then signs out', async () => {
    const started = await post('/servers/notes/sign-in', 'admin');
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ server: 'notes', state: 'waiting' });
    const url = new URL(started.body.authorizationUrl as string);
    expect(url.searchParams.get('redirect_uri')).toBe(`${base}/oauth/callback`);
    // The example approves at once: its redirect lands on the callback page.
    const page = await fetch(url, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('<h1>Signed in</h1>');
    expect(html).toContain('Signed in to &quot;notes&quot;');
    expect(html).toContain('You may close this tab');
    await expect
      .poll(() => signInOf('notes'))
      .toMatchObject({ state: 'signed_in', scope: 'mcp:tools', refreshable: expect.any(Boolean) as boolean });
    // The sign-in's sync follows the callback: the call works once it has listed the tools.
    const greet = async () => {
      const call = await fetch(`${base}/api/v1/tools/notes/greet/call`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ arguments: { name: 'Ada' } }),
      });
      return JSON.stringify(await call.json());
    };
    await expect.poll(greet).toContain('Hello, Ada!');

    const ended = await post('/servers/notes/sign-out', 'admin');
    expect(ended).toEqual({
      status: 200,
      body: { server: 'notes', forgotten: true, revocation: 'not_offered', status: 'needs_sign_in' },
    });
    expect(await signInOf('notes')).toMatchObject({ state: 'needs_sign_in' });
  });

  it('answers a stray or replayed callback with a 400 page', async () => {
    const res = await fetch(`${base}/oauth/callback?code=x&state=nobody`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('No sign-in is waiting for this answer');
  });
});
