// Slow: completions, log levels and resource subscriptions through the MCP face (legacy sessions
// over a linked transport), with real upstreams: the prompts-logs fixture and everything.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createMcpServer } from '../../../src/mcp/index.js';
import { LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { fixture, harness, referenceEntry, stdioServer, type Harness } from '../helpers.js';

interface Downstream {
  client: Client;
  logs: Array<{ level: string; logger?: string; data: unknown }>;
  updated: string[];
}

let h: Harness;
const open: Client[] = [];

async function session(): Promise<Downstream> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(h.gateway).connect(serverSide);
  const client = new Client({ name: 'test', version: '0' });
  const d: Downstream = { client, logs: [], updated: [] };
  client.setNotificationHandler('notifications/message', (n) => void d.logs.push(n.params as never));
  client.setNotificationHandler('notifications/resources/updated', (n) => void d.updated.push(n.params.uri));
  await client.connect(clientSide);
  open.push(client);
  return d;
}

const text = (r: { content?: unknown }) => (r.content as Array<{ text: string }>)[0]!.text;
const call = (d: Downstream, key: string, args: Record<string, unknown> = {}) =>
  d.client.request({
    method: 'tools/call',
    params: { name: 'call_tool', arguments: { key, arguments: args } },
  });

beforeAll(async () => {
  h = await harness([
    fixture('fx', 'prompts-logs.mjs', { env: { FIXTURE_ERA: 'legacy' } }),
    fixture('fx26', 'prompts-logs.mjs'),
    stdioServer('everything', [referenceEntry('server-everything'), 'stdio']),
  ]);
  await h.gateway.sync(ME);
});
afterAll(async () => {
  for (const c of open) await c.close();
  await h?.close();
});

describe('completion/complete', () => {
  it('goes to the server that owns the prompt, in either era; a bare name must name one server', async () => {
    const d = await session();
    const ask = (name: string) =>
      d.client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: 'arg1', value: 'test' } });
    expect((await ask('fx/test_prompt_with_arguments')).completion.values).toEqual(['test-one', 'test-two']);
    expect((await ask('fx26/test_prompt_with_arguments')).completion.values).toEqual([
      'test-one',
      'test-two',
    ]);
    // Both fixtures offer it: a bare name (what a client that knows the upstream's name sends) is refused.
    await expect(ask('test_prompt_with_arguments')).rejects.toThrow(
      'prompt "test_prompt_with_arguments" is offered by fx, fx26; name it as server/name',
    );
    await expect(ask('nothing_like_it')).rejects.toThrow(
      'unknown prompt "nothing_like_it"; prompts are named server/name (prompts/list names them)',
    );
    const everything = await d.client.complete({
      ref: { type: 'ref/prompt', name: 'everything/completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    expect(everything.completion.values).toEqual(['Engineering']);
  });

  it('goes to the server that owns a resource template, listed with its expressions kept', async () => {
    const d = await session();
    const { resourceTemplates } = await d.client.listResourceTemplates();
    const item = resourceTemplates.find((t) => t.name === 'fx/item')!;
    expect(item.uriTemplate).toBe('carte://fx/fixture%3A%2F%2Fitems%2F{id}');
    const r = await d.client.complete({
      ref: { type: 'ref/resource', uri: item.uriTemplate },
      argument: { name: 'id', value: '1' },
    });
    expect(r.completion.values).toEqual(['1', '10']);
  });
});

describe('logging/setLevel', () => {
  it('filters upstream log messages per session; the upstream gets the most verbose level', async () => {
    const verbose = await session();
    const quiet = await session(); // left at the default, info
    await verbose.client.setLoggingLevel('debug');
    await vi.waitFor(async () => expect(text(await call(verbose, 'fx/level'))).toBe('debug'));
    await call(verbose, 'fx/log', { level: 'debug', message: 'chatter' });
    await call(verbose, 'fx/log', { level: 'error', message: 'broken' });
    await vi.waitFor(() => expect(quiet.logs.map((l) => l.data)).toContain('broken'));
    expect(quiet.logs.map((l) => l.data)).not.toContain('chatter');
    await vi.waitFor(() => expect(verbose.logs.map((l) => l.data)).toContain('broken'));
    expect(verbose.logs.find((l) => l.data === 'chatter')).toEqual({
      level: 'debug',
      logger: 'fx/fixture',
      data: 'chatter',
    });
    await verbose.client.close();
    // The debug session went: the upstream is set back to the quietest level still asked for.
    await vi.waitFor(async () => expect(text(await call(quiet, 'fx/level'))).toBe('info'));
  });

  it('refuses a level that is not one', async () => {
    const d = await session();
    await expect(d.client.setLoggingLevel('loud' as never)).rejects.toThrow();
  });
});

describe('resources/subscribe', () => {
  it('reaches only the subscribed sessions, and unsubscribes upstream when the last one goes', async () => {
    const a = await session();
    const b = await session();
    const watcher = await session();
    const { resources } = await a.client.listResources();
    const uri = resources.find((r) => r.name === 'fx/counter')!.uri;
    expect(uri).toBe('carte://fx/fixture%3A%2F%2Fcounter');
    await a.client.subscribeResource({ uri });
    await b.client.subscribeResource({ uri });
    expect(text(await call(watcher, 'fx/touch'))).toBe('subscribed');
    await vi.waitFor(() => expect(a.updated).toEqual([uri]));
    await vi.waitFor(() => expect(b.updated).toEqual([uri]));
    expect(watcher.updated).toEqual([]);
    await a.client.unsubscribeResource({ uri });
    expect(text(await call(watcher, 'fx/touch'))).toBe('subscribed');
    await vi.waitFor(() => expect(b.updated).toEqual([uri, uri]));
    expect(a.updated).toEqual([uri]);
    await b.client.close(); // the last subscriber's session ends
    await vi.waitFor(async () => expect(text(await call(watcher, 'fx/touch'))).toBe('not subscribed'));
  });

  it('listens on a 2026-era upstream for the subscribed URI, and nothing else', async () => {
    const a = await session();
    const watcher = await session();
    const uri = 'carte://fx26/fixture%3A%2F%2Fcounter';
    await a.client.subscribeResource({ uri });
    expect(text(await call(watcher, 'fx26/touch'))).toBe('sent');
    await vi.waitFor(() => expect(a.updated).toEqual([uri]));
    expect(watcher.updated).toEqual([]);
    await a.client.unsubscribeResource({ uri });
    await call(watcher, 'fx26/touch');
    await call(watcher, 'fx/touch'); // one more round trip on the same upstreams
    expect(a.updated).toEqual([uri]);
  });

  it('refuses a server that offers no subscriptions, naming it', async () => {
    const d = await session();
    await expect(d.client.subscribeResource({ uri: 'carte://nope/x' })).rejects.toThrow(/nope/);
  });
});
