// Slow: a legacy-era (2025-11-25) session over a real socket, with the real everything server
// behind Carte. Its POSTs are answered as SSE streams: a call that reports progress must get each
// notification as it comes, not held back with its answer (an optimisation that sent ready answers
// in one piece was tried and dropped, docs/history/benchmarks-history.md "fourth pass"; this guards
// the stream).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createToken, LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpApp, type HttpServerHandle } from '../../../src/http/index.js';
import { harness, referenceEntry, stdioServer, type Harness } from '../helpers.js';

let h: Harness;
let app: HttpApp;
let server: HttpServerHandle;
let client: Client;

beforeAll(async () => {
  h = await harness([stdioServer('everything', [referenceEntry('server-everything'), 'stdio'])]);
  await h.gateway.sync(ME);
  const token = (await createToken(h.store, { project: 'default', scopes: ['call'] }, Date.now())).token;
  app = createHttpApp({ gateway: h.gateway, store: h.store });
  server = await listenHttp(app, { host: '127.0.0.1', port: 0 });
  client = new Client({ name: 'legacy-stream', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
  await h?.close();
});

const call = (key: string, args: Record<string, unknown>) => ({
  method: 'tools/call' as const,
  params: { name: 'call_tool', arguments: { key, arguments: args } },
});

it('is a legacy session', () => {
  expect(client.getProtocolEra()).toBe('legacy');
});

it('relays each progress notification while the call still runs', async () => {
  const key = 'everything/trigger-long-running-operation';
  // The call's audit row is "started" until the upstream answers: a notification that arrives
  // while it is so was sent on as it came, not held back with the answer.
  const reads: Promise<boolean>[] = [];
  const r = await client.request(call(key, { duration: 1, steps: 3 }), {
    onprogress: () =>
      void reads.push(h.store.activity.audit({ key }).then((rows) => rows[0]?.outcome === 'started')),
  });
  const running = await Promise.all(reads);
  expect(r.isError).not.toBe(true);
  expect(running.length).toBeGreaterThanOrEqual(2);
  expect(running[0]).toBe(true);
  expect((await h.store.activity.audit({ key }))[0]?.outcome).toBe('ok');
});

it('answers quick calls, one after another and at once', async () => {
  const texts = await Promise.all(
    Array.from({ length: 8 }, (_, i) => client.request(call('everything/echo', { message: `quick ${i}` }))),
  );
  texts.forEach((r, i) => expect((r.content as Array<{ text?: string }>)[0]?.text).toContain(`quick ${i}`));
});
