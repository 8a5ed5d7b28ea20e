// Slow: completions, log levels and resource subscriptions through both faces and both eras:
// /mcp on a real socket, and the built CLI's `carte serve` over stdio, with the prompts-logs
// fixture (2025 era only) behind them. The 2026 era has no session: completion works there, and
// logging/setLevel and resources/subscribe are not methods of that revision (the SDK's client
// refuses to send them); upstream-events-modern.test.ts has that era's listens and log levels.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { FACES, openFaces, type Face, type Faces } from '../face-clients.js';

type Era = 'legacy' | 'modern';
let faces: Faces;

beforeAll(async () => {
  faces = await openFaces([{ id: 'fx', file: 'prompts-logs.mjs', env: { FIXTURE_ERA: 'legacy' } }]);
});
afterAll(() => faces?.close());

const connect = (face: Face, era: Era) =>
  faces.connect(
    face,
    `${face}-${era}`,
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );

const call = (client: Client, key: string, args: Record<string, unknown> = {}) =>
  client.request({
    method: 'tools/call',
    params: { name: 'call_tool', arguments: { key, arguments: args } },
  });

describe.each(FACES)('%s face', (face) => {
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
    const data = () => seen.logs.map((l) => l.data);
    await vi.waitFor(() => expect(data()).toContain('for me'), 10_000);
    expect(data()).not.toContain('not for me');
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
    const url = faces.mcpUrl;
    const headers: Record<string, string> = {
      authorization: `Bearer ${faces.token}`,
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
