// Slow: the node lane (src/http/mcp-lane.ts) against the Hono route it stands in for. The same app
// is asked each request twice: over a real socket, where the lane takes the MCP POSTs it can, and
// through `app.request`, which is always the Hono route. Status, content type, the error or
// JSON-RPC message (from a JSON body or an SSE stream) and the challenge header must be equal,
// and the lane's count says which requests it took and which it left to the app.
import { getEventListeners } from 'node:events';
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpApp, type HttpServerHandle } from '../../../src/http/index.js';
import {
  fixture,
  harness,
  memoryLogger,
  MODERN_CALL_HEADERS,
  modernEnvelope,
  tempDir,
  type Harness,
} from '../helpers.js';

let h: Harness;
let app: HttpApp;
let server: HttpServerHandle;
let token: string;
const logger = memoryLogger();

beforeAll(async () => {
  h = await harness([fixture('faults', 'faults.mjs')], tempDir().dir);
  await h.gateway.sync(ME);
  token = (await createToken(h.store, { project: 'default', scopes: ['call'] }, Date.now())).token;
  app = createHttpApp({ gateway: h.gateway, store: h.store }, { logger });
  server = await listenHttp(app, { host: '127.0.0.1', port: 0 });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await h?.close();
});

const ENVELOPE = modernEnvelope('lane-test');
const MODERN = MODERN_CALL_HEADERS;

function call(args: unknown, meta: object = {}) {
  return {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'call_tool', arguments: args, _meta: { ...ENVELOPE, ...meta } },
  };
}

interface Answer {
  status: number;
  type: string | null;
  challenge: string | null;
  /** The JSON body, or the messages of an SSE stream. */
  body: unknown;
}

function answer(status: number, type: string | null, challenge: string | null, text: string): Answer {
  const body =
    type === 'text/event-stream'
      ? [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]!) as unknown)
      : text.startsWith('{') || text.startsWith('[')
        ? (JSON.parse(text) as unknown)
        : text;
  // The challenge names the origin the request came to: the socket's port, or app.request's localhost.
  return { status, type, challenge: challenge?.replace(/\/\/[^/]+\//, '//HOST/') ?? null, body };
}

/** Through the Hono route, never the lane. */
async function viaApp(headers: Record<string, string>, body: string): Promise<Answer> {
  const res = await app.request('/mcp', { method: 'POST', headers, body });
  const text = await res.text();
  return answer(res.status, res.headers.get('content-type'), res.headers.get('www-authenticate'), text);
}

/** Over the socket, as node:http sends it (duplicate headers as arrays; `chunked` sends no length). */
function viaSocket(
  headers: Record<string, string | string[]>,
  body: string,
  opts: { chunked?: boolean; method?: string; path?: string } = {},
): Promise<Answer> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: opts.path ?? '/mcp',
        method: opts.method ?? 'POST',
        headers: opts.chunked ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          const challenge = res.headers['www-authenticate'];
          resolve(answer(res.statusCode!, res.headers['content-type'] ?? null, challenge ?? null, text));
        });
      },
    );
    req.on('error', reject);
    // A write before end makes node send the body chunked (end alone would give it a length).
    if (opts.chunked) req.write(body);
    req.end(opts.chunked ? undefined : body);
  });
}

/** The socket's answer, and whether the lane took the request. */
async function laneAnswer(
  headers: Record<string, string | string[]>,
  body: string,
  opts: { chunked?: boolean; method?: string; path?: string } = {},
) {
  const before = app.lane.taken;
  const a = await viaSocket(headers, body, opts);
  return { answer: a, taken: app.lane.taken - before };
}

describe('the node lane answers as the Hono route does', () => {
  const auth = () => ({ ...MODERN, authorization: `Bearer ${token}` });
  const cases: [string, () => Record<string, string>, string][] = [
    ['a plain call', auth, JSON.stringify(call({ key: 'faults/echo', arguments: { text: 'hi' } }))],
    ['a tool error', auth, JSON.stringify(call({ key: 'faults/is_error', arguments: {} }))],
    ['an unknown key', auth, JSON.stringify(call({ key: 'faults/ecko', arguments: {} }))],
    [
      'a call with a progress token (the SDK answers, streaming)',
      auth,
      JSON.stringify(call({ key: 'faults/echo', arguments: { text: 'p' } }, { progressToken: 9 })),
    ],
    [
      'a client that can confirm (the SDK answers)',
      auth,
      JSON.stringify(
        call(
          { key: 'faults/echo', arguments: { text: 'e' } },
          { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
        ),
      ),
    ],
    ['a body that is not JSON', auth, '{"jsonrpc":'],
    ['no token', () => ({ ...MODERN }), JSON.stringify(call({ key: 'faults/echo' }))],
    [
      'a wrong token',
      () => ({ ...MODERN, authorization: 'Bearer carte_nope' }),
      JSON.stringify(call({ key: 'faults/echo' })),
    ],
    [
      'a foreign Origin',
      () => ({ ...auth(), origin: 'https://evil.example' }),
      JSON.stringify(call({ key: 'faults/echo' })),
    ],
  ];

  it.each(cases)('%s', async (_name, headers, body) => {
    const { answer: a, taken } = await laneAnswer(headers(), body);
    expect(taken).toBe(1);
    expect(a).toEqual(await viaApp(headers(), body));
    expect(a.status).not.toBe(500);
  });

  it('serves a legacy session opened through the app: a plain call and a listing (SSE)', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const withToken = { ...headers, authorization: `Bearer ${token}` };
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'l', version: '0' } },
    };
    const opened = await app.request('/mcp', {
      method: 'POST',
      headers: withToken,
      body: JSON.stringify(init),
    });
    await opened.text();
    const session = { ...withToken, 'mcp-session-id': opened.headers.get('mcp-session-id')! };
    const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect((await laneAnswer(session, initialized)).answer.status).toBe(202);
    const plain = JSON.stringify({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'call_tool', arguments: { key: 'faults/echo', arguments: { text: 'legacy' } } },
    });
    const a = await laneAnswer(session, plain);
    expect(a.taken).toBe(1);
    expect(a.answer).toEqual(await viaApp(session, plain));
    expect(JSON.stringify(a.answer.body)).toContain('legacy');
    const list = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    const b = await laneAnswer(session, list);
    expect(b.taken).toBe(1);
    expect(b.answer.type).toBe('text/event-stream');
    expect(b.answer).toEqual(await viaApp(session, list));
  });

  it('leaves to the app what it cannot serve exactly as the route does, and the app answers it', async () => {
    const body = JSON.stringify(call({ key: 'faults/echo', arguments: { text: 'x' } }));
    const left: [string, Record<string, string | string[]>, Parameters<typeof laneAnswer>[2]][] = [
      ['a chunked body', auth(), { chunked: true }],
      ['a header sent twice', { ...auth(), 'x-request-id': ['a', 'b'] }, {}],
      ['another path', auth(), { path: '/mcp?x=1' }],
      ['a GET', auth(), { method: 'GET' }],
      ['another content type', { ...auth(), 'content-type': 'text/plain' }, {}],
    ];
    for (const [name, headers, opts] of left) {
      const { answer: a, taken } = await laneAnswer(headers, opts?.method === 'GET' ? '' : body, opts);
      expect({ name, taken }).toEqual({ name, taken: 0 });
      expect(a.status, name).not.toBe(500);
    }
    // The chunked call was still answered, by the app.
    const chunked = await laneAnswer(auth(), body, { chunked: true });
    expect(JSON.stringify(chunked.answer.body)).toContain('"text":"x"');
  });
});

describe('a client that goes away mid-body', () => {
  it('is answered nothing and reported nowhere, and the server goes on', async () => {
    const before = app.lane.taken;
    const url = new URL(server.url);
    await new Promise<void>((resolve) => {
      const headers = { ...MODERN, authorization: `Bearer ${token}`, 'content-length': 1000 };
      const req = httpRequest({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers });
      req.on('error', () => undefined);
      req.write('{"jsonrpc":"2.0",');
      setTimeout(() => (req.destroy(), resolve()), 50);
    });
    await expect.poll(() => app.lane.taken).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(logger.lines.filter((l) => !l.startsWith('debug'))).toEqual([]);
    const body = JSON.stringify(call({ key: 'faults/echo', arguments: { text: 'after' } }));
    const { answer: a } = await laneAnswer({ ...MODERN, authorization: `Bearer ${token}` }, body);
    expect(JSON.stringify(a.body)).toContain('after');
  });
});

describe("a connection's calls share one abort signal", () => {
  it('is one signal per connection, and no finished call leaves a listener on it', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const callTool = h.gateway.callTool.bind(h.gateway);
    h.gateway.callTool = (ctx, key, args, req = {}) => (
      signals.push(req.signal),
      callTool(ctx, key, args, req)
    );
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const url = new URL(server.url);
      const sockets = new Set<unknown>();
      const send = (body: string) =>
        new Promise<string>((resolve, reject) => {
          const headers = {
            ...MODERN,
            authorization: `Bearer ${token}`,
            'content-length': Buffer.byteLength(body),
          };
          const req = httpRequest(
            { agent, host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers },
            (res) => {
              let t = '';
              res.on('data', (c: Buffer) => (t += c.toString()));
              res.on('end', () => resolve(t));
            },
          );
          req.on('socket', (s) => sockets.add(s));
          req.on('error', reject);
          req.end(body);
        });
      for (let i = 0; i < 5; i++) {
        expect(await send(JSON.stringify(call({ key: 'faults/echo', arguments: { text: 'k' } })))).toContain(
          '"k"',
        );
        expect(await send(JSON.stringify(call({ key: 'faults/is_error', arguments: {} })))).toContain(
          'isError',
        );
        expect(await send(JSON.stringify(call({ key: 'faults/ecko', arguments: {} })))).toContain(
          'faults/echo',
        );
      }
      expect(sockets.size).toBe(1);
      expect(signals).toHaveLength(15);
      expect(new Set(signals).size).toBe(1);
      expect(signals[0]!.aborted).toBe(false);
      expect(getEventListeners(signals[0]!, 'abort')).toHaveLength(0);
    } finally {
      h.gateway.callTool = callTool;
      agent.destroy();
    }
  });
});
