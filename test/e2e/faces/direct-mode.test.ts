import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createMcpServer, isProviderSafe } from '../../../src/mcp/index.js';
import { compileRules, LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { harness, referenceServers, tempDir, type Harness } from '../helpers.js';

// Slow: direct mode (issue 14, item 6) through a real client: the hot tools listed under
// provider-safe names beside search_tools, search adding what it finds (bounded, LRU), and
// list_changed sent each time the list changes.
describe('direct mode', () => {
  let h: Harness;
  let client: Client;
  let changes = 0;
  const dir = tempDir().dir;

  beforeAll(async () => {
    h = await harness(referenceServers(dir), dir, {
      rules: compileRules([{ match: ['everything/echo', 'everything/get-sum'], pin: true }]),
    });
    await h.gateway.sync(ME);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(h.gateway, ME, { exposure: { mode: 'direct', maxTools: 4 } }).connect(serverSide);
    client = new Client({ name: 'test', version: '0' });
    client.setNotificationHandler('notifications/tools/list_changed', () => void (changes += 1));
    await client.connect(clientSide);
  }, 120_000);
  afterAll(async () => {
    await client.close();
    await h.close();
  });

  const names = async () => (await client.listTools()).tools.map((t) => t.name);

  it('lists search_tools and the hot tools under provider-safe names', async () => {
    const listed = await names();
    expect(listed[0]).toBe('search_tools');
    expect(listed.slice(1).sort()).toEqual(['everything__echo', 'everything__get-sum']);
    for (const n of listed) expect(isProviderSafe(n)).toBe(true);
  });

  it('calls a listed tool by its name, passing the result through', async () => {
    const r = await client.callTool({ name: 'everything__echo', arguments: { message: 'direct' } });
    expect(JSON.stringify(r.content)).toContain('direct');
  });

  it('search adds what it finds, within maxTools, and says the list changed', async () => {
    const before = changes;
    const r = await client.callTool({
      name: 'search_tools',
      arguments: { query: 'read a text file', limit: 2 },
    });
    const results = JSON.parse((r.content as Array<{ text: string }>)[0]!.text).results as Array<{
      key: string;
      tool: string;
    }>;
    expect(results[0]!.tool).toMatch(/^filesystem__/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(changes).toBeGreaterThan(before);
    const listed = await names();
    expect(listed).toHaveLength(5); // search_tools + maxTools 4
    expect(listed).toContain(results[0]!.tool);
    const call = await client.callTool({ name: results[0]!.tool, arguments: { path: '/nowhere' } });
    expect(call.isError).toBe(true); // the upstream's own error, through
  });

  it('a name that is not exposed is refused as unknown', async () => {
    const r = await client.callTool({ name: 'memory__read_graph', arguments: {} });
    expect(r.isError).toBe(true);
  });
});
