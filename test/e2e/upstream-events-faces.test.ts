// Slow: completions, log levels and resource subscriptions through both faces and both eras:
// /mcp on a real socket, and the built CLI's `carte serve` over stdio, with the prompts-logs
// fixture (2025 era only) behind them. The 2026 era has no session: completion works there, and
// logging/setLevel and resources/subscribe are not methods of that revision (the SDK's client
// refuses to send them); upstream-events-modern.test.ts has that era's listens and log levels.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createToken, LOCAL_CALLER as ME } from '../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpServerHandle } from '../../src/http/index.js';
import { FIXTURES, fixture, harness, ROOT, tempDir, type Harness } from './helpers.js';

type Era = 'legacy' | 'modern';
let h: Harness;
let server: HttpServerHandle;
const tmp = tempDir();
const clients: Client[] = [];
let token: string;

beforeAll(async () => {
  h = await harness([fixture('fx', 'prompts-logs.mjs', { env: { FIXTURE_ERA: 'legacy' } })]);
  await h.gateway.sync(ME);
  token = (await createToken(h.store, { project: 'default', scopes: ['call'] }, Date.now())).token;
  server = await listenHttp(createHttpApp({ gateway: h.gateway, store: h.store }), {
    host: '127.0.0.1',
    port: 0,
  });
  writeFileSync(
    join(tmp.dir, 'carte.yaml'),
    [
      'servers:',
      '  fx:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(join(FIXTURES, 'prompts-logs.mjs'))}]`,
      '    env: { FIXTURE_ERA: legacy }',
      '',
    ].join('\n'),
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

async function connect(face: string, era: Era) {
  const client = new Client(
    { name: `${face}-${era}`, version: '0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const seen = { logs: [] as unknown[], updated: [] as string[] };
  client.setNotificationHandler('notifications/message', (n) => void seen.logs.push(n.params.data));
  client.setNotificationHandler(
    'notifications/resources/updated',
    (n) => void seen.updated.push(n.params.uri),
  );
  await client.connect(transports[face]!());
  clients.push(client);
  return { client, seen };
}

const call = (client: Client, key: string, args: Record<string, unknown> = {}) =>
  client.request({
    method: 'tools/call',
    params: { name: 'call_tool', arguments: { key, arguments: args } },
  });

describe.each(['http', 'stdio'])('%s face', (face) => {
  it.each(['legacy', 'modern'] as const)('completes a prompt argument in the %s era', async (era) => {
    const { client } = await connect(face, era);
    const r = await client.complete({
      ref: { type: 'ref/prompt', name: 'fx/test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'test-t' },
    });
    expect(r.completion.values).toEqual(['test-two']);
    expect(client.getServerCapabilities()).toMatchObject({ completions: {} });
  });

  it('relays log messages at the session level and resource updates, in the legacy era', async () => {
    const { client, seen } = await connect(face, 'legacy');
    expect(client.getServerCapabilities()).toMatchObject({ logging: {}, resources: { subscribe: true } });
    await client.setLoggingLevel('warning');
    // Over HTTP they come on the session's GET stream, which the client opens after initialize:
    // what is sent before it opens waits for it (session-backlog.ts).
    await call(client, 'fx/log', { level: 'notice', message: 'not for me' });
    await call(client, 'fx/log', { level: 'warning', message: 'for me' });
    await vi.waitFor(() => expect(seen.logs).toContain('for me'), 10_000);
    expect(seen.logs).not.toContain('not for me');
    const uri = 'carte://fx/fixture%3A%2F%2Fcounter';
    await client.subscribeResource({ uri });
    await call(client, 'fx/touch');
    await vi.waitFor(() => expect(seen.updated).toContain(uri));
    expect(new Set(seen.updated)).toEqual(new Set([uri]));
    await client.unsubscribeResource({ uri });
  });
});

describe('http face, 2025 era, before the GET stream opens', () => {
  it('keeps the session-wide messages sent before the client opens its GET stream', async () => {
    const url = `${server.url}/mcp`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const post = async (body: unknown) => {
      const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      await res.text();
      return res;
    };
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    headers['mcp-session-id'] = init.headers.get('mcp-session-id')!;
    headers['mcp-protocol-version'] = '2025-11-25';
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // The upstream's log messages are session-wide: they go on the GET stream, not yet open.
    const log = (id: number, message: string) =>
      post({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'call_tool', arguments: { key: 'fx/log', arguments: { level: 'warning', message } } },
      });
    await log(2, 'before the stream');
    const get = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' } });
    expect(get.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await log(3, 'after the stream');
    const reader = get.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('after the stream')) text += (await reader.read()).value ?? '';
    expect(text.indexOf('before the stream')).toBeGreaterThan(-1);
    expect(text.indexOf('before the stream')).toBeLessThan(text.indexOf('after the stream'));
    await reader.cancel();
    await fetch(url, { method: 'DELETE', headers });
  });
});
