// Slow: the HTTP face's plain modern-era call_tool (src/http/plain-call.ts) against the SDK's
// per-request server it stands in for. Every request goes to two apps over one gateway, one with
// the plain path and one without, and the two answers must be equal (status, content type, the
// JSON-RPC body); requests the plain path must not take are checked to reach the SDK. The faults
// fixture gives tool errors, bad arguments and a hang whose cancellation the upstream counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, LOCAL_CALLER as ME, projectsFromConfig } from '../../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpApp, type HttpServerHandle } from '../../../src/http/index.js';
import { MODERN_REVISION, plainLegacyCall, plainModernCall } from '../../../src/http/plain-call.js';
import { fixture, harness, MODERN_CALL_HEADERS, modernEnvelope, tempDir, type Harness } from '../helpers.js';

const PROJECTS = projectsFromConfig({
  projects: {
    default: { servers: ['faults'], rules: [], deny: [], confirm: [] },
    careful: {
      servers: ['faults'],
      rules: [{ match: 'faults/is_error', class: 'write', tags: [] }],
      deny: ['destructive'],
      confirm: ['write'],
    },
  },
});

let h: Harness;
let plain: HttpApp;
let sdk: HttpApp;
let tokens: Record<'call' | 'search' | 'careful', string>;

beforeAll(async () => {
  const dir = tempDir().dir;
  h = await harness([fixture('faults', 'faults.mjs')], dir, { projects: PROJECTS });
  await h.gateway.sync(ME);
  const make = async (project: string, scope: string) =>
    (await createToken(h.store, { project, scopes: [scope] }, Date.now())).token;
  tokens = {
    call: await make('default', 'call'),
    search: await make('default', 'search'),
    careful: await make('careful', 'call'),
  };
  plain = createHttpApp({ gateway: h.gateway, store: h.store });
  sdk = createHttpApp({ gateway: h.gateway, store: h.store }, { plainCalls: false });
}, 60_000);
afterAll(async () => {
  await plain?.close();
  await sdk?.close();
  await h?.close();
});

/** The audit rows written so far, counting event rows still being written. */
async function auditRows(): Promise<number> {
  await h.gateway.audit.settle();
  return h.store.activity.count();
}

const ENVELOPE = modernEnvelope('plain-test');
const HEADERS = MODERN_CALL_HEADERS;

function callBody(args: unknown, extra: { id?: unknown; meta?: object; params?: object } = {}) {
  return {
    jsonrpc: '2.0',
    id: 'id' in extra ? extra.id : 7,
    method: 'tools/call',
    params: { name: 'call_tool', arguments: args, _meta: { ...ENVELOPE, ...extra.meta }, ...extra.params },
  };
}

async function post(app: HttpApp, body: unknown, token = tokens.call, headers: Record<string, string> = {}) {
  const res = await app.request('/mcp', {
    method: 'POST',
    headers: { ...HEADERS, authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: text.startsWith('{') ? JSON.parse(text) : text,
  };
}

const CASES = [
  ['a call', { key: 'faults/echo', arguments: { text: 'hello' } }, 'call'],
  ['a string id', { key: 'faults/echo', arguments: { text: 'x' } }, 'call', 'abc'],
  ['a tool error', { key: 'faults/is_error', arguments: {} }, 'call'],
  ['an output that breaks its schema', { key: 'faults/bad_output', arguments: {} }, 'call'],
  ['an unknown key with a suggestion', { key: 'faults/ecko', arguments: { text: 'x' } }, 'call'],
  ['arguments that break the schema', { key: 'faults/echo', arguments: { text: 5 } }, 'call'],
  ['no key', { arguments: {} }, 'call'],
  ['a key that is not a string', { key: 5 }, 'call'],
  ['a token without the call scope', { key: 'faults/echo', arguments: { text: 'x' } }, 'search'],
  ['a class the project denies', { key: 'faults/crash', arguments: {} }, 'careful'],
  [
    'a class the project asks to confirm, no elicitation',
    { key: 'faults/is_error', arguments: {} },
    'careful',
  ],
] as const;

describe('the plain call_tool path answers as the SDK does', () => {
  it.each(CASES)('%s', async (_name, args, who, id: string | number = 7) => {
    const rows = [await auditRows()];
    const a = await post(plain, callBody(args, { id }), tokens[who]);
    rows.push(await auditRows());
    const b = await post(sdk, callBody(args, { id }), tokens[who]);
    rows.push(await auditRows());
    expect(a).toEqual(b);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ jsonrpc: '2.0', id, result: { resultType: 'complete' } });
    // Carte's identity, not the upstream's (the faults fixture stamps its own on every result).
    expect(a.body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({
      name: 'carte',
      version: '0.1.0',
    });
    // As many audit rows as on the SDK's path (none when the arguments never name a key).
    expect(rows[1]! - rows[0]!).toBe(rows[2]! - rows[1]!);
  });

  it.each([
    [
      'a progress token',
      callBody({ key: 'faults/echo', arguments: { text: 'x' } }, { meta: { progressToken: 1 } }),
    ],
    [
      'a client that can confirm',
      callBody(
        { key: 'faults/echo', arguments: { text: 'x' } },
        { meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } },
      ),
    ],
    [
      'meta for the upstream',
      callBody({ key: 'faults/echo', arguments: { text: 'x' } }, { meta: { 'example.com/trace': 'x' } }),
    ],
    [
      'a retry',
      callBody({ key: 'faults/echo', arguments: { text: 'x' } }, { params: { requestState: 'x' } }),
    ],
    [
      'another meta-tool',
      {
        ...callBody({ query: 'echo' }),
        params: { ...callBody({}).params, name: 'search_tools', arguments: { query: 'echo' } },
      },
    ],
    [
      'an older envelope',
      callBody({ key: 'faults/echo' }, { meta: { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } }),
    ],
    [
      'bad clientInfo',
      callBody({ key: 'faults/echo' }, { meta: { 'io.modelcontextprotocol/clientInfo': { name: 5 } } }),
    ],
    [
      'no capabilities',
      {
        ...callBody({ key: 'faults/echo' }),
        params: {
          name: 'call_tool',
          arguments: { key: 'faults/echo' },
          _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_REVISION },
        },
      },
    ],
    ['a null id', callBody({ key: 'faults/echo' }, { id: null })],
    ['a batch', [callBody({ key: 'faults/echo' })]],
  ])('leaves %s to the SDK', (_name, body) => {
    expect(plainModernCall(new Headers(HEADERS), body)).toBeUndefined();
  });

  it.each([
    ['an empty MCP-Protocol-Version header', { 'mcp-protocol-version': '' }],
    ['a mismatched Mcp-Name', { 'mcp-name': 'search_tools' }],
    ['a mismatched Mcp-Method', { 'mcp-method': 'tools/list' }],
  ] as [string, Record<string, string>][])(
    'leaves %s to the SDK, which refuses it',
    async (_name, headers) => {
      const body = callBody({ key: 'faults/echo', arguments: { text: 'x' } });
      expect(plainModernCall(new Headers({ ...HEADERS, ...headers }), body)).toBeUndefined();
      const a = await post(plain, body, tokens.call, headers);
      const b = await post(sdk, body, tokens.call, headers);
      expect(a).toEqual(b);
      expect(a.status).toBeGreaterThanOrEqual(400);
    },
  );

  it('takes the plain case itself', () => {
    expect(plainModernCall(new Headers(HEADERS), callBody({ key: 'faults/echo' }))).toEqual({
      id: 7,
      arguments: { key: 'faults/echo' },
    });
  });
});

const LEGACY_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Opens a legacy session on `app` for `token`; returns the headers its requests carry. */
async function legacySession(app: HttpApp, token: string, capabilities: object = {}) {
  const headers = { ...LEGACY_HEADERS, authorization: `Bearer ${token}` };
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities,
      clientInfo: { name: 'plain-legacy', version: '0' },
    },
  };
  const res = await app.request('/mcp', { method: 'POST', headers, body: JSON.stringify(init) });
  const session = res.headers.get('mcp-session-id')!;
  await res.text();
  const withSession = { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  const done = { jsonrpc: '2.0', method: 'notifications/initialized' };
  await app.request('/mcp', { method: 'POST', headers: withSession, body: JSON.stringify(done) });
  return withSession;
}

/** A legacy answer as its JSON-RPC message, from a JSON body or the SSE stream's one event. */
async function legacyPost(app: HttpApp, headers: Record<string, string>, body: unknown) {
  const res = await app.request('/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  const data =
    res.headers.get('content-type') === 'text/event-stream' ? /^data: (.*)$/m.exec(text)?.[1] : text;
  return {
    status: res.status,
    session: res.headers.get('mcp-session-id'),
    message: JSON.parse(data ?? 'null') as unknown,
  };
}

describe('the plain call_tool path answers a legacy session as the SDK does', () => {
  const sessions = new Map<string, Record<string, string>>();
  const session = async (app: HttpApp, who: keyof typeof tokens, capabilities: object = {}) => {
    const key = `${app === plain ? 'plain' : 'sdk'} ${who} ${JSON.stringify(capabilities)}`;
    if (!sessions.has(key)) sessions.set(key, await legacySession(app, tokens[who], capabilities));
    return sessions.get(key)!;
  };
  const legacyBody = (args: unknown, id: unknown = 7) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'call_tool', arguments: args },
  });

  it.each(CASES)('%s', async (_name, args, who, id: string | number = 7) => {
    const rows = [await auditRows()];
    const a = await legacyPost(plain, await session(plain, who), legacyBody(args, id));
    rows.push(await auditRows());
    const b = await legacyPost(sdk, await session(sdk, who), legacyBody(args, id));
    rows.push(await auditRows());
    expect(a.message).toEqual(b.message);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.session).toBe((await session(plain, who))['mcp-session-id']);
    expect(rows[1]! - rows[0]!).toBe(rows[2]! - rows[1]!);
  });

  it('takes the plain case itself, and leaves the rest to the SDK', async () => {
    const headers = new Headers(await session(plain, 'call'));
    expect(plainLegacyCall(headers, legacyBody({ key: 'faults/echo' }))).toEqual({
      id: 7,
      arguments: { key: 'faults/echo' },
    });
    const withMeta = {
      ...legacyBody({}),
      params: { name: 'call_tool', arguments: {}, _meta: { progressToken: 1 } },
    };
    expect(plainLegacyCall(headers, withMeta)).toBeUndefined();
    headers.set('accept', 'application/json');
    expect(plainLegacyCall(headers, legacyBody({}))).toBeUndefined();
    headers.set('accept', LEGACY_HEADERS.accept);
    headers.set('mcp-protocol-version', '1999-01-01');
    expect(plainLegacyCall(headers, legacyBody({}))).toBeUndefined();
  });

  it('leaves a client that can confirm to the SDK, which streams its answer', async () => {
    const headers = await session(plain, 'call', { elicitation: {} });
    const res = await plain.request('/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify(legacyBody({ key: 'faults/echo', arguments: { text: 'x' } })),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(await res.text()).toContain('"text":"x"');
  });
});

describe('a client that goes away', () => {
  let server: HttpServerHandle;
  beforeAll(async () => {
    server = await listenHttp(plain, { host: '127.0.0.1', port: 0 });
  });
  afterAll(() => server?.stop());

  it('cancels the upstream call, as the SDK does', async () => {
    const stats = async () => {
      const { body } = await post(plain, callBody({ key: 'faults/stats', arguments: {} }));
      return JSON.parse(body.result.content[0].text) as { hangStarted: number; hangCancelled: number };
    };
    const before = await stats();
    const abort = new AbortController();
    const pending = fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...HEADERS, authorization: `Bearer ${tokens.call}` },
      body: JSON.stringify(callBody({ key: 'faults/hang', arguments: {} })),
      signal: abort.signal,
    }).catch((err: Error) => err);
    await expect
      .poll(async () => (await stats()).hangStarted, { timeout: 5000 })
      .toBe(before.hangStarted + 1);
    abort.abort();
    expect(await pending).toBeInstanceOf(Error);
    await expect
      .poll(async () => (await stats()).hangCancelled, { timeout: 5000 })
      .toBe(before.hangCancelled + 1);
  });

  it('cancels a legacy plain call on the notifications/cancelled of its client', async () => {
    const stats = async () => {
      const { body } = await post(plain, callBody({ key: 'faults/stats', arguments: {} }));
      return JSON.parse(body.result.content[0].text) as { hangStarted: number; hangCancelled: number };
    };
    const before = await stats();
    const headers = await legacySession(plain, tokens.call);
    const call = {
      jsonrpc: '2.0',
      id: 'h1',
      method: 'tools/call',
      params: { name: 'call_tool', arguments: { key: 'faults/hang', arguments: {} } },
    };
    const pending = legacyPost(plain, headers, call);
    await expect
      .poll(async () => (await stats()).hangStarted, { timeout: 5000 })
      .toBe(before.hangStarted + 1);
    const cancel = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'h1', reason: 'test' },
    };
    const res = await plain.request('/mcp', { method: 'POST', headers, body: JSON.stringify(cancel) });
    expect(res.status).toBe(202);
    await expect
      .poll(async () => (await stats()).hangCancelled, { timeout: 5000 })
      .toBe(before.hangCancelled + 1);
    // The call answers (a cancelled tool error) rather than hanging.
    expect((await pending).status).toBe(200);
  });
});
