import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createMcpServer } from '../../../src/mcp/index.js';
import { countTokens, LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { fixture, harness, referenceEntry, stdioServer, type Harness } from '../helpers.js';

// Slow: the MCP face in-process over a linked transport, with real upstreams behind it.
describe('MCP face: four meta-tools', () => {
  let h: Harness;
  let client: Client;
  beforeAll(async () => {
    h = await harness([
      stdioServer('everything', [referenceEntry('server-everything'), 'stdio']),
      fixture('paged', 'paginated.mjs'),
    ]);
    await h.gateway.sync(ME);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(h.gateway).connect(serverSide);
    client = new Client({ name: 'test', version: '0' });
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client.close();
    await h.close();
  });

  const call = (name: string, args: Record<string, unknown>) =>
    client.request({ method: 'tools/call', params: { name, arguments: args } });
  const json = (r: { content?: unknown }) =>
    JSON.parse((r.content as Array<{ text: string }>)[0]!.text) as Record<string, unknown>;

  it('lists exactly four tools, under 500 tokens in all', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_tools', 'browse_tools', 'describe_tool', 'call_tool']);
    expect(await countTokens(JSON.stringify({ tools }))).toBeLessThan(500);
    // The search and browse descriptions say what the catalog holds.
    expect(tools[0]!.description).toMatch(/Holds \d+ tools: /);
  });

  it('search_tools ranks tools and merges an array of queries', async () => {
    const one = json(await call('search_tools', { query: 'echo a message', limit: 3 }));
    expect((one.results as Array<{ key: string }>)[0]?.key).toBe('everything/echo');
    const many = json(await call('search_tools', { query: ['echo a message', 'add two numbers'], limit: 5 }));
    const keys = (many.results as Array<{ key: string }>).map((r) => r.key);
    expect(keys).toEqual(expect.arrayContaining(['everything/echo', 'everything/get-sum']));
  });

  it('browse_tools gives the menu, then one server paged', async () => {
    const menu = json(await call('browse_tools', {}));
    expect(menu.kind).toBe('menu');
    expect((menu.categories as Array<{ tools: number }>).length).toBeGreaterThan(0);
    const page = json(await call('browse_tools', { server: 'paged' }));
    expect(page).toMatchObject({ kind: 'tools', scope: { server: 'paged' }, total: 7 });
  });

  it('describe_tool returns the full schema', async () => {
    const d = json(await call('describe_tool', { key: 'everything/get-sum' }));
    expect(d.inputSchema).toMatchObject({ properties: { a: {}, b: {} } });
  });

  it('call_tool passes the upstream result through', async () => {
    const r = await call('call_tool', { key: 'everything/echo', arguments: { message: 'through carte' } });
    expect(r.isError).not.toBe(true);
    expect(JSON.stringify(r.content)).toContain('through carte');
  });

  it('gateway errors come back as readable tool errors', async () => {
    const r = await call('call_tool', { key: 'everything/ech', arguments: {} });
    expect(r).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'unknown tool "everything/ech"; did you mean "everything/echo"?' }],
    });
    const bad = await call('search_tools', { query: 42 });
    expect(bad).toMatchObject({
      isError: true,
      content: [{ text: 'search_tools: "query" must be a string or a non-empty array of strings, not 42' }],
    });
  });

  it('relays progress with the downstream token', async () => {
    const seen: number[] = [];
    const r = await client.request(
      {
        method: 'tools/call',
        params: {
          name: 'call_tool',
          arguments: {
            key: 'everything/trigger-long-running-operation',
            arguments: { duration: 1, steps: 3 },
          },
        },
      },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(r.isError).not.toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it('passes cancellation upstream', async () => {
    const abort = new AbortController();
    const pending = client.request(
      {
        method: 'tools/call',
        params: {
          name: 'call_tool',
          arguments: {
            key: 'everything/trigger-long-running-operation',
            arguments: { duration: 20, steps: 20 },
          },
        },
      },
      { signal: abort.signal },
    );
    setTimeout(() => abort.abort(), 300);
    await expect(pending).rejects.toThrow();
    const r = await call('call_tool', { key: 'everything/echo', arguments: { message: 'after cancel' } });
    expect(JSON.stringify(r.content)).toContain('after cancel');
  });

  it('passes upstream resources and prompts through with server-prefixed names', async () => {
    const { resources } = await client.listResources();
    const first = resources[0]!;
    expect(first.uri).toMatch(/^carte:\/\/everything\//);
    expect(first.name).toMatch(/^everything\//);
    const read = await client.readResource({ uri: first.uri });
    expect(read.contents[0]?.uri).toBe(first.uri);
    const { prompts } = await client.listPrompts();
    const simple = prompts.find((p) => p.name === 'everything/simple-prompt') ?? prompts[0]!;
    expect(simple.name).toMatch(/^everything\//);
    const got = await client.getPrompt({ name: simple.name, arguments: {} });
    expect(got.messages.length).toBeGreaterThan(0);
    await expect(client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(
      'resource URI "file:///etc/passwd" is not a Carte URI (carte://<server>/<encoded upstream URI>)',
    );
  });
});
