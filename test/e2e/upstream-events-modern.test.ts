// Slow: the 2026-07-28 era's resource subscriptions and per-request log levels through both faces
// (/mcp on a real socket, the built CLI's `carte serve` over stdio), with the prompts-logs fixture
// behind them in both upstream eras: `fx` speaks 2025 (subscribed with resources/subscribe, its
// log messages unasked), `fm` speaks 2026 (a listen stream upstream, a level on each request).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  Client,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createToken, LOCAL_CALLER as ME } from '../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpServerHandle } from '../../src/http/index.js';
import { FIXTURES, fixture, harness, ROOT, tempDir, type Harness } from './helpers.js';

let h: Harness;
let server: HttpServerHandle;
const tmp = tempDir();
const clients: Client[] = [];
let token: string;
const COUNTER = (id: string) => `carte://${id}/fixture%3A%2F%2Fcounter`;

beforeAll(async () => {
  h = await harness([
    fixture('fx', 'prompts-logs.mjs', { env: { FIXTURE_ERA: 'legacy' } }),
    fixture('fm', 'prompts-logs.mjs'),
  ]);
  await h.gateway.sync(ME);
  token = (await createToken(h.store, { project: 'default', scopes: ['call'] }, Date.now())).token;
  server = await listenHttp(createHttpApp({ gateway: h.gateway, store: h.store }), {
    host: '127.0.0.1',
    port: 0,
  });
  const entry = (id: string, env: string) =>
    [
      `  ${id}:`,
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(join(FIXTURES, 'prompts-logs.mjs'))}]`,
      ...(env ? [`    env: { FIXTURE_ERA: ${env} }`] : []),
    ].join('\n');
  writeFileSync(
    join(tmp.dir, 'carte.yaml'),
    ['servers:', entry('fx', 'legacy'), entry('fm', ''), ''].join('\n'),
  );
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await server?.stop();
  await h?.close();
  tmp.cleanup();
});

const transports: Record<string, () => Transport> = {
  http: () =>
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  stdio: () =>
    new StdioClientTransport({
      command: process.execPath,
      args: [
        join(ROOT, 'bin', 'carte.js'),
        'serve',
        '--config',
        join(tmp.dir, 'carte.yaml'),
        '--data-dir',
        join(tmp.dir, 'data'),
      ],
      stderr: 'pipe',
    }),
};

async function connect(face: string) {
  const client = new Client(
    { name: `${face}-modern`, version: '0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  const seen = { logs: [] as unknown[], updated: [] as string[] };
  client.setNotificationHandler('notifications/message', (n) => void seen.logs.push(n.params));
  client.setNotificationHandler(
    'notifications/resources/updated',
    (n) => void seen.updated.push(n.params.uri),
  );
  await client.connect(transports[face]!());
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  clients.push(client);
  return { client, seen };
}

async function call(client: Client, key: string, args: Record<string, unknown> = {}, level?: string) {
  const result = await client.request({
    method: 'tools/call',
    params: {
      name: 'call_tool',
      arguments: { key, arguments: args },
      ...(level ? { _meta: { [LOG_LEVEL_META_KEY]: level } } : {}),
    },
  });
  return (result.content as { text: string }[])[0]!.text;
}

describe.each(['http', 'stdio'])('%s face, 2026-07-28 era', (face) => {
  it('subscribes a 2025-era upstream for a listen stream, and unsubscribes when it closes', async () => {
    const { client, seen } = await connect(face);
    const uri = COUNTER('fx');
    const sub = await client.listen({ resourceSubscriptions: [uri] });
    expect(sub.honoredFilter).toEqual({ resourceSubscriptions: [uri] });
    expect(await call(client, 'fx/touch')).toBe('subscribed');
    await vi.waitFor(() => expect(seen.updated).toContain(uri));
    expect(new Set(seen.updated)).toEqual(new Set([uri]));
    await sub.close();
    // Closing the stream is cancellation: the last holder gone, Carte unsubscribes upstream.
    await vi.waitFor(async () => expect(await call(client, 'fx/touch')).toBe('not subscribed'));
  });

  it('subscribes a 2026-era upstream with a listen stream of its own', async () => {
    const { client, seen } = await connect(face);
    const uri = COUNTER('fm');
    const sub = await client.listen({ resourceSubscriptions: [uri] });
    expect(sub.honoredFilter).toEqual({ resourceSubscriptions: [uri] });
    // The upstream listen opens before the acknowledgement, but the fixture's SDK may register it
    // a moment later: touch until an update arrives.
    await vi.waitFor(async () => {
      expect(await call(client, 'fm/touch')).toBe('sent');
      expect(seen.updated).toContain(uri);
    }, 10_000);
    expect(new Set(seen.updated)).toEqual(new Set([uri]));
    await sub.close();
  });

  it('refuses a listen naming a resource of an unknown server, naming it', async () => {
    const { client } = await connect(face);
    const err = await client.listen({ resourceSubscriptions: ['carte://nope/x'] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -32602, message: 'unknown server "nope"' });
  });

  it.each(['fx', 'fm'])(
    'relays %s log messages on the request that asked, at or above its level',
    async (id) => {
      const { client, seen } = await connect(face);
      expect(await call(client, `${id}/log`, { level: 'error', message: 'unasked' })).toBe('logged');
      expect(await call(client, `${id}/log`, { level: 'notice', message: 'too low' }, 'warning')).toBe(
        'logged',
      );
      expect(await call(client, `${id}/log`, { level: 'warning', message: 'for me' }, 'warning')).toBe(
        'logged',
      );
      expect(seen.logs).toEqual([{ level: 'warning', logger: `${id}/fixture`, data: 'for me' }]);
    },
  );
});
