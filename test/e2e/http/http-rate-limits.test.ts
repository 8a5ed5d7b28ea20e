// Rate limits through the whole HTTP app (issue 40, item 5), on both engines: 429 with Retry-After
// on REST, a JSON-RPC error on /mcp, the failed sign-in lockout per client address (behind a
// trusted proxy: X-Forwarded-For), and both in /metrics and the audit. The clock is the test's.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createToken,
  Gateway,
  LOCAL_CALLER as ME,
  projectsFromConfig,
  serversFromConfig,
  type Store,
} from '../../../src/gateway/index.js';
import { parseConfigText } from '../../../src/config/index.js';
import { createHttpApp, type HttpApp } from '../../../src/http/index.js';
import { testEngines } from '../../../src/store/test-engines.js';
import { memoryLogger } from '../helpers.js';

const T0 = 1_800_000_000_000 + 20_000; // 20 s into a minute
const opened: { app: HttpApp; gateway: Gateway }[] = [];

const TWO_PROJECTS = 'servers: {}\nprojects:\n  web: { servers: [], rate: 2/m }\n  ops: { servers: [] }\n';

async function setup(store: Store, text = TWO_PROJECTS) {
  const config = parseConfigText(text, { path: 'carte.yaml', env: {} }).config!;
  const gateway = await Gateway.open({
    servers: serversFromConfig(config),
    store,
    logger: memoryLogger(),
    projects: projectsFromConfig(config),
  });
  const clock = { now: T0 };
  const app = createHttpApp({ gateway, store, env: {} }, { now: () => clock.now, trustProxy: true });
  opened.push({ app, gateway });
  const token = async (project: string, scopes: string[], ratePerMinute?: number) =>
    (await createToken(store, { project, scopes, ...(ratePerMinute ? { ratePerMinute } : {}) }, T0)).token;
  const request = (path: string, o: { token?: string; from: string; body?: object }) =>
    app.request(`http://127.0.0.1${path}`, {
      method: o.body ? 'POST' : 'GET',
      headers: {
        ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
        'x-forwarded-for': `10.9.9.9, ${o.from}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      ...(o.body ? { body: JSON.stringify(o.body) } : {}),
    });
  return { app, gateway, clock, token, request };
}

/** Reloads the gateway with `text` as the config, as `carte serve` does when its file changes. */
async function reload(gateway: Gateway, text: string): Promise<void> {
  const config = parseConfigText(text, { path: 'carte.yaml', env: {} }).config!;
  await gateway.reload(ME, serversFromConfig(config), { projects: projectsFromConfig(config) });
}

afterEach(async () => {
  for (const { app, gateway } of opened.splice(0)) {
    await app.close();
    await gateway.close();
  }
});

describe.each(testEngines(afterEach))('rate limits over HTTP on $name', (engine) => {
  it("answers 429 with Retry-After past a project's rate, on REST and on /mcp as a JSON-RPC error", async () => {
    const store = await engine.open();
    const { token, request, clock } = await setup(store);
    const web = await token('web', ['call']);
    const from = '198.51.100.4';
    expect((await request('/api/v1/servers', { token: web, from })).status).toBe(200);
    expect((await request('/api/v1/servers', { token: web, from })).status).toBe(200);
    const rest = await request('/api/v1/servers', { token: web, from });
    expect(rest.status).toBe(429);
    expect(rest.headers.get('retry-after')).toBe('40');
    const id = /token (tok_\w+)/.exec(
      ((await rest.json()) as { error: { message: string } }).error.message,
    )?.[1];
    const ping = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const mcp = await request('/mcp', { token: web, from, body: ping });
    expect(mcp.status).toBe(429);
    expect(await mcp.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32013,
        message: `token ${id} made more than 2 requests this minute; retry in 40 s`,
        data: { code: 'rate_limited', retryAfterSeconds: 40 },
      },
    });
    clock.now += 40_000; // the next minute
    expect((await request('/api/v1/servers', { token: web, from })).status).toBe(200);
    const admin = await token('ops', ['admin'], 100);
    const metrics = await (await request('/metrics', { token: admin, from })).text();
    expect(metrics).toMatch(/^carte_rate_limited_total\{limit="project"\} 2$/m);
    // the refusal's audit row is written after its answer (it raced this read on PostgreSQL)
    await vi.waitFor(async () => {
      const rows = await store.activity.audit({ kinds: ['auth'] });
      expect(rows.map((r) => [r.outcome, r.tokenId, r.detail])).toEqual([
        ['rate_limited', id, 'project limit 2/m'],
      ]);
    });
  });

  it("a token made over REST with its own rate is held to it, not to its project's", async () => {
    const store = await engine.open();
    const { token, request } = await setup(store);
    const admin = await token('ops', ['admin']);
    const from = '198.51.100.5';
    const made = await request('/api/v1/tokens', {
      token: admin,
      from,
      body: { scopes: ['search'], ratePerMinute: 1 },
    });
    const body = (await made.json()) as { token: string; id: string; ratePerMinute: number };
    expect([made.status, body.ratePerMinute]).toEqual([201, 1]);
    expect((await request('/api/v1/servers', { token: body.token, from })).status).toBe(200);
    const refused = await request('/api/v1/servers', { token: body.token, from });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      `token ${body.id} made more than 1 requests this minute; retry in 40 s`,
    );
  });

  it("a config reload applies the projects' changed rates to the next request", async () => {
    const store = await engine.open();
    const { gateway, token, request } = await setup(store);
    const [web, ops] = [await token('web', ['call']), await token('ops', ['call'])];
    const from = '198.51.100.6';
    const statuses = async (t: string, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await request('/api/v1/servers', { token: t, from })).status);
      return out;
    };
    expect(await statuses(web, 3)).toEqual([200, 200, 429]);
    expect(await statuses(ops, 3)).toEqual([200, 200, 200]);
    // Within the minute: web's rate goes up to 4 (its count stays: 3 so far), ops gets one of 3
    // (counted from the reload on: a request without a limit is not counted)
    await reload(
      gateway,
      'servers: {}\nprojects:\n  web: { servers: [], rate: 4/m }\n  ops: { servers: [], rate: 3/m }\n',
    );
    expect(await statuses(web, 2)).toEqual([200, 429]);
    expect(await statuses(ops, 4)).toEqual([200, 200, 200, 429]);
    // and a rate removed is no limit at all
    await reload(gateway, 'servers: {}\nprojects:\n  web: { servers: [] }\n  ops: { servers: [] }\n');
    expect(await statuses(web, 2)).toEqual([200, 200]);
  });

  it('http.rate limits the implicit default project, and a project without a rate of its own', async () => {
    const store = await engine.open();
    const { gateway, token, request } = await setup(store, 'servers: {}\nhttp: { rate: 2/m }\n');
    const mine = await token('default', ['call']);
    const from = '198.51.100.7';
    const status = async (t: string) => (await request('/api/v1/servers', { token: t, from })).status;
    expect([await status(mine), await status(mine), await status(mine)]).toEqual([200, 200, 429]);
    await reload(gateway, 'servers: {}\nhttp: { rate: 4/m }\n'); // 3 counted so far
    expect([await status(mine), await status(mine)]).toEqual([200, 429]);
    // with projects: http.rate for those without their own
    const text =
      'servers: {}\nhttp: { rate: 1/m }\nprojects:\n  web: { servers: [], rate: 2/m }\n  ops: { servers: [] }\n';
    await reload(gateway, text);
    const [web, ops] = [await token('web', ['call']), await token('ops', ['call'])];
    expect([await status(web), await status(web), await status(web)]).toEqual([200, 200, 429]);
    expect([await status(ops), await status(ops)]).toEqual([200, 429]);
    // the refusals' audit rows are written after their answers
    await vi.waitFor(async () => {
      const rows = await store.activity.audit({ kinds: ['auth'], outcome: 'rate_limited' });
      expect(rows.map((r) => [r.project, r.detail]).sort()).toEqual([
        ['default', 'project limit 2/m'],
        ['ops', 'project limit 1/m'],
        ['web', 'project limit 2/m'],
      ]);
    });
  });

  it("a project's total caps its tokens together over HTTP, counted in /metrics", async () => {
    const store = await engine.open();
    const text =
      'servers: {}\nprojects:\n  team: { servers: [], rate: { perToken: 2/m, total: 3/m } }\n  ops: { servers: [] }\n';
    const { token, request } = await setup(store, text);
    const [a, b] = [await token('team', ['call']), await token('team', ['call'], 50)];
    const from = '198.51.100.9';
    const status = async (t: string) => (await request('/api/v1/servers', { token: t, from })).status;
    expect([await status(a), await status(b), await status(b)]).toEqual([200, 200, 200]);
    const refused = await request('/api/v1/servers', { token: a, from });
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '40']);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'project "team" made more than 3 requests this minute, its tokens together; retry in 40 s',
    );
    const admin = await token('ops', ['admin']);
    const metrics = await (await request('/metrics', { token: admin, from })).text();
    expect(metrics).toMatch(/^carte_rate_limited_total\{limit="project_total"\} 1$/m);
  });

  it('locks a client address out for a minute after more than 10 bad tokens', async () => {
    const store = await engine.open();
    const { token, request, clock } = await setup(store);
    const good = await token('ops', ['admin']);
    const bad = 'carte_' + 'x'.repeat(43);
    const attacker = '203.0.113.66';
    const statuses = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await request('/api/v1/servers', { token: bad, from: attacker })).status);
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    const locked = await request('/api/v1/servers', { token: good, from: attacker });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('60');
    expect(await locked.json()).toEqual({
      error: { code: 'rate_limited', message: 'too many failed sign-ins from 203.0.113.66; retry in 60 s' },
    });
    expect((await request('/api/v1/servers', { token: good, from: '198.51.100.8' })).status).toBe(200);
    clock.now += 60_000;
    expect((await request('/api/v1/servers', { token: good, from: attacker })).status).toBe(200);
    const metrics = await (await request('/metrics', { token: good, from: '198.51.100.8' })).text();
    expect(metrics).toMatch(/^carte_rate_limited_total\{limit="auth_failures"\} 2$/m);
    await vi.waitFor(async () => {
      const rows = await store.activity.audit({ kinds: ['auth'], outcome: 'rate_limited' });
      expect(rows.map((r) => r.detail)).toEqual([
        'address 203.0.113.66: more than 10 failed sign-ins a minute',
      ]);
    });
  });
});
