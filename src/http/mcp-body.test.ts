// `/mcp` bodies over a real socket: with a Content-Length the body is read straight from the
// socket (no web stream); a chunked body goes through the SDK's counting reader. Both keep the
// 4 MiB limit and the same answers (app.test.ts covers the rest through app.request()).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';
import { harness, stdioServer, type Harness } from '../../test/e2e/helpers.js';
import { createHttpApp, listenHttp, type HttpServerHandle } from './index.js';

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
});
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let h: Harness;
let server: HttpServerHandle;
beforeAll(async () => {
  h = await harness([stdioServer('idle', ['-e', '0'])]);
  const app = createHttpApp({ gateway: h.gateway, store: h.store, anonymousProject: 'default' });
  server = await listenHttp(app, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server.stop();
  await h.close();
});

/** A body sent chunked (no Content-Length), in two pieces. */
function chunked(text: string): { body: ReadableStream<Uint8Array>; duplex: 'half' } {
  const bytes = new TextEncoder().encode(text);
  const half = Math.floor(bytes.length / 2);
  return {
    body: new ReadableStream({
      start(c) {
        c.enqueue(bytes.slice(0, half));
        c.enqueue(bytes.slice(half));
        c.close();
      },
    }),
    duplex: 'half',
  };
}

const post = (init: Record<string, unknown>) =>
  fetch(`${server.url}/mcp`, { method: 'POST', headers: HEADERS, ...init });

describe('/mcp request bodies over a socket', () => {
  it.each([
    ['with a Content-Length', () => ({ body: INIT })],
    ['chunked', () => chunked(INIT)],
  ])('opens a session from a body sent %s', async (_name, body) => {
    const res = await post(body());
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toMatch(/./);
    await res.body?.cancel();
  });

  it.each([
    ['with a Content-Length', () => ({ body: 'x'.repeat(DEFAULT_MAX_REQUEST_BODY_SIZE + 1) })],
    ['chunked', () => chunked('x'.repeat(DEFAULT_MAX_REQUEST_BODY_SIZE + 1))],
  ])('answers 413 to a body over the limit sent %s', async (_name, body) => {
    const res = await post(body());
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: -32000 } });
  });

  it('answers 400 to a body that is not JSON, and 415 to one that is not sent as JSON', async () => {
    const bad = await post({ body: '{"jsonrpc": ' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: -32700 } });
    const text = await post({ body: INIT, headers: { ...HEADERS, 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    await text.body?.cancel();
  });
});
