// The REST API and /metrics through the whole HTTP app (createHttpApp): real tokens resolve to
// projects and scopes, real upstream servers answer, approvals write a real config file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigFile } from '../../../src/config/index.js';
import {
  compileRules,
  createToken,
  Gateway,
  LOCAL_CALLER,
  localCaller,
  openStore,
  projectsFromConfig,
  serversFromConfig,
  type Store,
} from '../../../src/gateway/index.js';
import { createHttpApp, type HttpApp } from '../../../src/http/index.js';
import { FIXTURES, memoryLogger, referenceEntry, tempDir } from '../helpers.js';

const tmp = tempDir('carte-http-api-');
const configPath = join(tmp.dir, 'carte.yaml');
const node = JSON.stringify(process.execPath);
writeFileSync(
  configPath,
  [
    '# kept across approvals',
    'servers:',
    `  everything: { command: ${node}, args: [${JSON.stringify(referenceEntry('server-everything'))}, stdio] }`,
    `  pages: { command: ${node}, args: [${JSON.stringify(join(FIXTURES, 'paginated.mjs'))}] }`,
    'projects:',
    '  alpha: { servers: [everything] }',
    '  beta: { servers: [pages] }',
    '',
  ].join('\n'),
);

let store: Store;
let gateway: Gateway;
let app: HttpApp;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  const loaded = loadConfigFile(configPath, { env: {} });
  const config = loaded.config!;
  store = await openStore(join(tmp.dir, 'carte.db'));
  gateway = await Gateway.open({
    servers: serversFromConfig(config),
    store,
    logger: memoryLogger(),
    rules: compileRules(config.rules),
    projects: projectsFromConfig(config),
  });
  await gateway.sync(LOCAL_CALLER);
  const mint = async (project: string, scope: string) =>
    (await createToken(store, { project, scopes: [scope] }, Date.now())).token;
  tokens.alphaSearch = await mint('alpha', 'search');
  tokens.alphaCall = await mint('alpha', 'call');
  tokens.alphaAdmin = await mint('alpha', 'admin');
  tokens.betaAdmin = await mint('beta', 'admin');
  app = createHttpApp({ gateway, store, configPath, env: {}, dataDir: tmp.dir });
}, 60_000);

afterAll(async () => {
  await app.close();
  await gateway.close();
  await store.close();
  tmp.cleanup();
});

async function api(token: string | undefined, path: string, init: RequestInit = {}) {
  const headers: Record<string, string> = { ...(init.body ? { 'content-type': 'application/json' } : {}) };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await app.request(`http://127.0.0.1${path}`, { ...init, headers });
  const text = await res.text();
  return { status: res.status, text, body: text.startsWith('{') ? JSON.parse(text) : undefined };
}

describe('REST API through createHttpApp', () => {
  it('says who the token is', async () => {
    const r = await api(tokens.alphaSearch, '/api/v1/me');
    expect(r).toMatchObject({ status: 200, body: { project: 'alpha', scopes: ['search'] } });
  });

  it('answers 401 with the challenge and the JSON error without a token', async () => {
    const res = await app.request('http://127.0.0.1/api/v1/search?q=echo');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=/);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });

  it('searches, lists the hot list, categories and a page of tools in the project only', async () => {
    const s = await api(tokens.alphaSearch, '/api/v1/search?q=echo%20a%20message&limit=3');
    expect(s.status).toBe(200);
    expect(s.body.results[0].key).toBe('everything/echo');
    expect(s.body.results.length).toBeLessThanOrEqual(3);
    expect(s.body.results.every((r: { server: string }) => r.server === 'everything')).toBe(true);
    const cats = await api(tokens.alphaSearch, '/api/v1/categories');
    expect(cats.status).toBe(200);
    const total = cats.body.categories.reduce((n: number, c: { toolCount: number }) => n + c.toolCount, 0);
    const page = await api(tokens.alphaSearch, '/api/v1/tools?server=everything');
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(total);
    expect(page.body.tools.every((t: { key: string }) => t.key.startsWith('everything/'))).toBe(true);
    const hot = await api(tokens.alphaSearch, '/api/v1/hot');
    expect(hot.status).toBe(200);
    expect(Array.isArray(hot.body.tools)).toBe(true);
  });

  it("writes no browse audit event for the menu routes a page reads; an agent's browse is one", async () => {
    const kinds: string[] = [];
    const stop = gateway.onAuditEvent((e) => kinds.push(e.kind));
    try {
      for (const path of ['/hot', '/categories', '/tools?server=everything', '/servers'])
        expect((await api(tokens.alphaSearch, `/api/v1${path}`)).status).toBe(200);
      expect(kinds).toEqual([]);
      // A search through REST stays a search row (the web search box's too).
      expect((await api(tokens.alphaSearch, '/api/v1/search?q=echo')).status).toBe(200);
      expect(kinds).toEqual(['search']);
      await gateway.browseTools(localCaller('alpha'), {}); // browse_tools, as the MCP face calls it
      expect(kinds).toEqual(['search', 'browse']);
    } finally {
      stop();
    }
  });

  it('pages with a cursor until the end', async () => {
    const keys: string[] = [];
    let cursor: string | undefined;
    do {
      const q = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const r = await api(tokens.betaAdmin, `/api/v1/tools?server=pages${q}`);
      expect(r.status).toBe(200);
      keys.push(...r.body.tools.map((t: { key: string }) => t.key));
      cursor = r.body.nextCursor;
    } while (cursor);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe((await api(tokens.betaAdmin, '/api/v1/tools?server=pages')).body.total);
  });

  it('describes a tool with its call class, category and tags', async () => {
    const r = await api(tokens.alphaSearch, '/api/v1/tools/everything/echo');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ key: 'everything/echo', server: 'everything', name: 'echo' });
    expect(['read', 'write', 'destructive']).toContain(r.body.class);
    expect(typeof r.body.category).toBe('string');
    expect(Array.isArray(r.body.tags)).toBe(true);
    expect(r.body.inputSchema).toMatchObject({ type: 'object' });
  });

  it("answers another project's tool exactly like an unknown one", async () => {
    const theirs = await api(tokens.alphaAdmin, '/api/v1/tools/pages/page_tool_1');
    const unknown = await api(tokens.alphaAdmin, '/api/v1/tools/pages/no_such_tool');
    expect(theirs.status).toBe(404);
    expect(theirs.status).toBe(unknown.status);
    expect(theirs.body.error.code).toBe('unknown_tool');
    expect(theirs.text).toBe(unknown.text.replace('no_such_tool', 'page_tool_1'));
    const call = await api(tokens.alphaAdmin, '/api/v1/tools/pages/page_tool_1/call', {
      method: 'POST',
      body: JSON.stringify({ arguments: {} }),
    });
    expect(call.status).toBe(404);
    const search = await api(tokens.alphaAdmin, '/api/v1/search?q=page%20tool');
    expect(search.body.results.some((r: { server: string }) => r.server === 'pages')).toBe(false);
    const servers = await api(tokens.alphaAdmin, '/api/v1/servers');
    expect(servers.body.servers.map((s: { id: string }) => s.id)).toEqual(['everything']);
    const refresh = await api(tokens.alphaAdmin, '/api/v1/servers/pages/refresh', { method: 'POST' });
    const refreshUnknown = await api(tokens.alphaAdmin, '/api/v1/servers/nope/refresh', { method: 'POST' });
    expect(refresh.status).toBe(404);
    expect(refresh.text).toBe(refreshUnknown.text.replace('nope', 'pages'));
  });

  it('calls a tool with a call token; a search token gets 403', async () => {
    const body = JSON.stringify({ arguments: { message: 'hi there' } });
    const ok = await api(tokens.alphaCall, '/api/v1/tools/everything/echo/call', { method: 'POST', body });
    expect(ok.status).toBe(200);
    expect(JSON.stringify(ok.body.content)).toContain('hi there');
    const denied = await api(tokens.alphaSearch, '/api/v1/tools/everything/echo/call', {
      method: 'POST',
      body,
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toEqual({
      code: 'denied',
      message: 'call_tool needs the call scope; this caller has search (ask for a token with --scope call)',
    });
  });

  it('refuses bad input naming the value', async () => {
    const r = await api(tokens.alphaSearch, '/api/v1/search?q=x&limit=500');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('bad_input');
    expect(r.body.error.message).toBe('query "limit": too big: expected number to be <=50, not "500"');
    const range = await api(tokens.alphaSearch, '/api/v1/activity?range=year');
    expect(range.body.error.message).toBe(
      'query "range": invalid option: expected one of "hour"|"week", not "year"',
    );
    const neither = await api(tokens.alphaSearch, '/api/v1/tools');
    expect(neither.body.error).toEqual({
      code: 'bad_input',
      message: 'GET /api/v1/tools needs a category or a server (or both)',
    });
    const badArgs = await api(tokens.alphaCall, '/api/v1/tools/everything/echo/call', {
      method: 'POST',
      body: JSON.stringify({ arguments: 'nope' }),
    });
    expect(badArgs.status).toBe(400);
  });

  it('shows servers without targets; admins see state and last discovery', async () => {
    const plain = await api(tokens.alphaSearch, '/api/v1/servers');
    expect(plain.status).toBe(200);
    expect(plain.body.servers[0]).toEqual({ id: 'everything', toolCount: expect.any(Number), usable: true });
    const admin = await api(tokens.alphaAdmin, '/api/v1/servers');
    expect(admin.body.servers[0]).toMatchObject({ id: 'everything', status: 'success', lastError: null });
    expect(typeof admin.body.servers[0].lastDiscovery).toBe('string');
    expect(admin.text).not.toContain(process.execPath);
    expect(admin.text).not.toContain('server-everything');
    const refresh = await api(tokens.alphaAdmin, '/api/v1/servers/everything/refresh', { method: 'POST' });
    expect(refresh).toMatchObject({ status: 200, body: { server: 'everything', status: 'success' } });
    const denied = await api(tokens.alphaCall, '/api/v1/servers/everything/refresh', { method: 'POST' });
    expect(denied.status).toBe(403);
  });

  it("keeps the audit log to admins and to the caller's project", async () => {
    expect((await api(tokens.alphaSearch, '/api/v1/audit')).status).toBe(403);
    const rows = await api(tokens.alphaAdmin, '/api/v1/audit?since=1h&limit=500');
    expect(rows.status).toBe(200);
    expect(rows.body.rows.length).toBeGreaterThan(0);
    expect(rows.body.rows.every((r: { project: string }) => r.project === 'alpha')).toBe(true);
    const calls = await api(tokens.alphaAdmin, '/api/v1/audit?tool=everything/echo');
    expect(
      calls.body.rows.some((r: { kind: string; outcome: string }) => r.kind === 'call' && r.outcome === 'ok'),
    ).toBe(true);
    const other = await api(tokens.alphaAdmin, '/api/v1/audit?project=beta');
    expect(other.status).toBe(403);
    const bad = await api(tokens.alphaAdmin, '/api/v1/audit?since=yesterday');
    expect(bad.body.error).toEqual({
      code: 'bad_input',
      message: 'since must be a duration (30m, 24h, 7d, 2w) or an ISO time, not "yesterday"',
    });
  });

  it('makes an admin token over REST only with an expiry of at most 90 days', async () => {
    const mint = (body: object) =>
      api(tokens.alphaAdmin, '/api/v1/tokens', { method: 'POST', body: JSON.stringify(body) });
    const count = async () => (await api(tokens.alphaAdmin, '/api/v1/tokens')).body.tokens.length as number;
    const before = await count();
    const forever = await mint({ scopes: ['admin'] });
    expect(forever).toMatchObject({ status: 400 });
    expect(forever.body.error).toEqual({
      code: 'bad_input',
      message:
        'an admin token made over the API must expire: give expiresInDays from 1 to 90, not none; "carte token create" on the server makes longer-lived ones',
    });
    const tooLong = await mint({ scopes: ['search', 'admin'], expiresInDays: 365 });
    expect(tooLong.body.error).toEqual({
      code: 'bad_input',
      message:
        'an admin token made over the API must expire within 90 days, not 365; "carte token create" on the server makes longer-lived ones',
    });
    expect(await count()).toBe(before);
    const now = Date.now();
    const ok = await mint({ scopes: ['admin'], expiresInDays: 90 });
    expect(ok.status).toBe(201);
    expect(Date.parse(ok.body.expiresAt) - now).toBeGreaterThanOrEqual(90 * 86_400_000 - 1000);
    expect((await api(ok.body.token, '/api/v1/tokens')).status).toBe(200);
    // Below admin, a token may still be made without an expiry.
    const reader = await mint({ scopes: ['call'] });
    expect(reader).toMatchObject({ status: 201, body: { scopes: ['call'], expiresAt: null } });
  });
});

describe('approvals over HTTP', () => {
  const proposal = { command: process.execPath, args: [join(FIXTURES, 'paginated.mjs')] };

  it('lists, rejects and approves a proposal (admin); approval writes the file and discovers', async () => {
    const keep = await store.proposals.insert({ serverId: 'extra', config: proposal, source: 'test' });
    const drop = await store.proposals.insert({ serverId: 'dropped', config: proposal, source: 'test' });
    expect((await api(tokens.alphaCall, '/api/v1/approvals')).status).toBe(403);
    const listed = await api(tokens.alphaAdmin, '/api/v1/approvals');
    expect(listed.status).toBe(200);
    expect(listed.body.proposals.map((p: { id: string }) => p.id)).toEqual([keep.id, drop.id]);
    expect(listed.body.proposals[0]).toMatchObject({ server: 'extra', source: 'test', problems: [] });
    const rejected = await api(tokens.alphaAdmin, `/api/v1/approvals/proposals/${drop.id}/reject`, {
      method: 'POST',
    });
    expect(rejected).toMatchObject({ status: 200, body: { id: drop.id, server: 'dropped' } });
    const approved = await api(tokens.alphaAdmin, `/api/v1/approvals/proposals/${keep.id}/approve`, {
      method: 'POST',
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: keep.id, server: 'extra', discovery: { status: 'success' } });
    expect(approved.body.discovery.toolCount).toBeGreaterThan(0);
    const text = readFileSync(configPath, 'utf8');
    expect(text).toContain('# kept across approvals');
    expect(text).toContain('extra:');
    expect((await store.proposals.get(keep.id))?.decidedBy).toMatch(/^token:tok_/);
    const again = await api(tokens.alphaAdmin, `/api/v1/approvals/proposals/${drop.id}/approve`, {
      method: 'POST',
    });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toMatch(
      new RegExp(`^proposal "${drop.id}" was already rejected by token:tok_`),
    );
    // Each decision is an admin row, the refused one too, naming who decided.
    const audit = await api(tokens.alphaAdmin, '/api/v1/audit?since=1h&limit=500');
    const decisions = (audit.body.rows as { kind: string; outcome: string; detail: string | null }[])
      .filter((r) => r.kind === 'admin' && /^proposal /.test(r.detail ?? ''))
      .reverse()
      .map((r) => [r.outcome, r.detail?.replace(/token tok_\w+( "[^"]*")?/, 'token X')]);
    expect(decisions).toEqual([
      ['ok', `proposal reject ${drop.id}: server "dropped"; by token X`],
      ['ok', `proposal approve ${keep.id}: server "extra" written to ${configPath}; by token X`],
      ['bad_input', `proposal approve "${drop.id}"; by token X`],
    ]);
  }, 60_000);

  it('shows the hosts a proposal asks for; the approval grants some, and they are written and stored', async () => {
    const asks = { ...proposal, sandbox: { network: ['registry.npmjs.org', 'localhost:9'] } };
    const p = await store.proposals.insert({ serverId: 'netty', config: asks, source: 'test' });
    const listed = await api(tokens.alphaAdmin, '/api/v1/approvals');
    const row = listed.body.proposals.find((x: { id: string }) => x.id === p.id);
    expect(row.network).toEqual(['registry.npmjs.org', 'localhost:9']);
    const path = `/api/v1/approvals/proposals/${p.id}/approve`;
    const bad = await api(tokens.alphaAdmin, path, { method: 'POST', body: '{"network":["a b"]}' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(
      `proposal "${p.id}" was not approved: network grant "a b" is not a host, host:port or *.example.com`,
    );
    const ok = await api(tokens.alphaAdmin, path, { method: 'POST', body: '{"network":["localhost:9"]}' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      server: 'netty',
      network: ['localhost:9'],
      discovery: { status: 'success' },
    });
    expect(readFileSync(configPath, 'utf8')).toMatch(
      /netty:\n(.*\n)*? {4}sandbox:\n {6}network:\n {8}- localhost:9\n/,
    );
    expect((await store.proposals.get(p.id))?.grant).toEqual(['localhost:9']);
  }, 60_000);

  it("lists and releases only the project's quarantined tools, each decision an admin row", async () => {
    // Held on beta's server: alpha neither sees it nor may release it.
    await store.trust.putQuarantine({
      key: 'pages/page_tool_1',
      serverId: 'pages',
      kind: 'drift',
      reason: 'changed since it was approved',
      findings: [],
      since: Date.now(),
    });
    const path = '/api/v1/approvals/tools/pages/page_tool_1/approve';
    expect((await api(tokens.alphaAdmin, '/api/v1/approvals')).body.quarantined).toEqual([]);
    const r = await api(tokens.alphaAdmin, path, { method: 'POST' });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      code: 'bad_input',
      message: 'tool "pages/page_tool_1" is not quarantined; no tool is',
    });
    const listed = await api(tokens.betaAdmin, '/api/v1/approvals');
    expect(listed.body.quarantined.map((q: { key: string }) => q.key)).toEqual(['pages/page_tool_1']);
    const released = await api(tokens.betaAdmin, path, { method: 'POST' });
    expect(released).toMatchObject({ status: 200, body: { key: 'pages/page_tool_1', kind: 'drift' } });
    type Row = { kind: string; key: string | null; outcome: string; detail: string };
    const rows = async (token: string) =>
      ((await api(token, '/api/v1/audit?since=1h&limit=500')).body.rows as Row[])
        .filter((row) => row.kind === 'admin' && row.key === 'pages/page_tool_1')
        .map((row) => [row.outcome, row.detail.replace(/tok_\w+/, 'tok_X')]);
    expect(await rows(tokens.alphaAdmin!)).toEqual([
      ['bad_input', 'quarantine release "pages/page_tool_1"; by token tok_X'],
    ]);
    expect(await rows(tokens.betaAdmin!)).toEqual([
      [
        'ok',
        expect.stringMatching(
          /^quarantine release pages\/page_tool_1 \(drift\): pinned to \w{12}; by token tok_X$/,
        ),
      ],
    ]);
  });

  it('refuses to approve when Carte has no config file (the bundled demo)', async () => {
    const demo = createHttpApp({ gateway, store, env: {} });
    const p = await store.proposals.insert({ serverId: 'later', config: proposal, source: 'test' });
    const res = await demo.request(`http://127.0.0.1/api/v1/approvals/proposals/${p.id}/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.alphaAdmin}` },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: 'bad_config',
        message: `cannot approve "${p.id}": Carte runs the bundled demo, which has no config file to write to; start it with --config FILE`,
      },
    });
    await demo.close();
  });
});

describe('/metrics', () => {
  it('needs an admin token and counts calls, errors and searches per server and meta-tool', async () => {
    expect((await api(tokens.alphaCall, '/metrics')).status).toBe(403);
    expect((await api(undefined, '/metrics')).status).toBe(401);
    const r = await api(tokens.alphaAdmin, '/metrics');
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/^carte_tool_calls_total\{server="everything",outcome="ok"\} [1-9]/m);
    expect(r.text).toMatch(/^carte_meta_tool_requests_total\{meta_tool="search_tools",outcome="ok"\} [1-9]/m);
    expect(r.text).toMatch(
      /^carte_errors_total\{meta_tool="call_tool",server="pages",code="unknown_tool"\} 1$/m,
    );
    expect(r.text).toMatch(/^carte_search_duration_seconds_count [1-9]/m);
    expect(r.text).toMatch(
      /^carte_tool_call_duration_seconds_bucket\{le="\+Inf",server="everything"\} [1-9]/m,
    );
    expect(r.text).toMatch(/^carte_catalog_tools\{server="everything"\} [1-9]/m);
    expect(r.text).toMatch(/^carte_upstream_state\{server="everything",state="ready"\} 1$/m);
    expect(r.text).toMatch(/^carte_session_tokens\{kind="saved"\} -?\d+$/m);
  });

  it('labels a server nobody configured as "unknown" (bounded labels)', async () => {
    const body = JSON.stringify({ arguments: {} });
    await api(tokens.alphaCall, '/api/v1/tools/made-up-1/x/call', { method: 'POST', body });
    await api(tokens.alphaCall, '/api/v1/tools/made-up-2/x/call', { method: 'POST', body });
    const r = await api(tokens.alphaAdmin, '/metrics');
    expect(r.text).not.toContain('made-up');
    expect(r.text).toMatch(/^carte_tool_calls_total\{server="unknown",outcome="unknown_tool"\} 2$/m);
  });

  it('counts the calls a start found interrupted (issue 40)', async () => {
    const dead = await openStore(store.path);
    await dead.activity.begin({
      kind: 'call',
      key: 'everything/echo',
      server: 'everything',
      project: 'alpha',
    });
    await dead.close(); // a call in flight: its lease stays, as after a kill
    await (await openStore(store.path)).close(); // the next start
    const r = await api(tokens.alphaAdmin, '/metrics');
    expect(r.text).toMatch(/^carte_interrupted_calls\{server="everything"\} 1$/m);
  });
});
