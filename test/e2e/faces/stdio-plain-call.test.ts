// Slow: plain call_tool on a 2025-era stdio connection (src/mcp/stdio-plain.ts) against the SDK's
// server it stands in for. The MCP face is served in-process over real stdio transports on
// PassThrough streams, once with the plain path and once without, over one gateway and the faults
// fixture; every answer must be equal. A client that can confirm, and calls with `_meta`, must
// reach the SDK; a client's notifications/cancelled must stop a plain call upstream.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { serveMcpStdio } from '../../../src/mcp/index.js';
import { fixture, harness, tempDir, type Harness } from '../helpers.js';

let h: Harness;

beforeAll(async () => {
  h = await harness([fixture('faults', 'faults.mjs')], tempDir().dir);
  await h.gateway.sync(ME);
}, 60_000);
afterAll(() => h?.close());

/** One stdio connection: write JSON-RPC lines, await answers by id. */
async function connect(plainCalls: boolean, capabilities: object = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const waiting = new Map<unknown, (m: Record<string, unknown>) => void>();
  const notifications: Record<string, unknown>[] = [];
  const lines = new Map<unknown, string>();
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      const message = JSON.parse(line) as Record<string, unknown>;
      lines.set(message.id, line);
      buffer = buffer.slice(nl + 1);
      if (message.id === undefined) notifications.push(message);
      else waiting.get(message.id)?.(message);
    }
  });
  const errors: Error[] = [];
  const handle = serveMcpStdio(h.gateway, (e) => errors.push(e), { plainCalls, stdin, stdout });
  const write = (m: object) => stdin.write(`${JSON.stringify(m)}\n`);
  const request = (m: { id: string | number; method: string; params: object }) =>
    new Promise<Record<string, unknown>>((resolve) => {
      waiting.set(m.id, resolve);
      write({ jsonrpc: '2.0', ...m });
    });
  await request({
    id: 'init',
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities,
      clientInfo: { name: 'plain-stdio', version: '0' },
    },
  });
  write({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { request, write, errors, notifications, lines, close: () => handle.close() };
}

const call = (id: string | number, args: unknown, meta?: object) => ({
  id,
  method: 'tools/call',
  params: { name: 'call_tool', arguments: args, ...(meta ? { _meta: meta } : {}) },
});

describe('plain call_tool on stdio answers as the SDK does', () => {
  let plain: Awaited<ReturnType<typeof connect>>;
  let sdk: Awaited<ReturnType<typeof connect>>;
  beforeAll(async () => {
    plain = await connect(true);
    sdk = await connect(false);
  });
  afterAll(async () => {
    await plain?.close();
    await sdk?.close();
  });

  it.each([
    ['a call', { key: 'faults/echo', arguments: { text: 'hello' } }],
    ['a tool error', { key: 'faults/is_error', arguments: {} }],
    ['an output that breaks its schema', { key: 'faults/bad_output', arguments: {} }],
    ['an unknown key', { key: 'faults/ecko', arguments: { text: 'x' } }],
    ['arguments that break the schema', { key: 'faults/echo', arguments: { text: 5 } }],
    ['no key', { arguments: {} }],
  ])('%s', async (_name, args) => {
    for (const id of [7, 'seven']) {
      const a = await plain.request(call(id, args));
      const b = await sdk.request(call(id, args));
      expect(a).toEqual(b);
      expect(a).toMatchObject({ jsonrpc: '2.0', id, result: { content: expect.any(Array) } });
      expect(JSON.stringify(a)).not.toContain('fixture-faults'); // the upstream's serverInfo stays behind
      // Who wrote the line: the plain path puts jsonrpc first, the SDK's server the result.
      expect(plain.lines.get(id)).toMatch(/^\{"jsonrpc"/);
      expect(sdk.lines.get(id)).toMatch(/^\{"result"/);
    }
    expect([...plain.errors, ...sdk.errors]).toEqual([]);
  });

  it('leaves a call with _meta (a progress token) to the SDK, which relays progress', async () => {
    const a = await plain.request(
      call(8, { key: 'faults/slow', arguments: { ms: 40, steps: 2 } }, { progressToken: 'p' }),
    );
    expect(JSON.stringify(a)).toMatch(/slow: 2 steps done \(progressToken \d+\)/);
    const progress = plain.notifications.filter((n) => n.method === 'notifications/progress');
    expect(progress.map((n) => (n.params as { progressToken: unknown }).progressToken)).toEqual(['p', 'p']);
  });

  it('cancels a plain call on the notifications/cancelled of its client', async () => {
    const stats = async () => {
      const r = (await plain.request(call(`s${Math.random()}`, { key: 'faults/stats', arguments: {} }))) as {
        result: { content: { text: string }[] };
      };
      return JSON.parse(r.result.content[0]!.text) as { hangStarted: number; hangCancelled: number };
    };
    const before = await stats();
    const pending = plain.request(call('hang-1', { key: 'faults/hang', arguments: {} }));
    await expect
      .poll(async () => (await stats()).hangStarted, { timeout: 5000 })
      .toBe(before.hangStarted + 1);
    plain.write({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'hang-1', reason: 'test' },
    });
    await expect
      .poll(async () => (await stats()).hangCancelled, { timeout: 5000 })
      .toBe(before.hangCancelled + 1);
    expect(await pending).toMatchObject({ id: 'hang-1', result: { isError: true } });
  });
});

describe('a stdio client that can confirm', () => {
  it('is answered by the SDK (same answer either way)', async () => {
    const plain = await connect(true, { elicitation: {} });
    const sdk = await connect(false, { elicitation: {} });
    try {
      const args = { key: 'faults/echo', arguments: { text: 'confirm-capable' } };
      expect(await plain.request(call(1, args))).toEqual(await sdk.request(call(1, args)));
      expect(plain.lines.get(1)).toMatch(/^\{"result"/);
    } finally {
      await plain.close();
      await sdk.close();
    }
  });
});
