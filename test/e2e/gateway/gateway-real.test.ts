import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { harness, referenceServers, tempDir, type Harness } from '../helpers.js';

// Slow: spawns the real reference servers from npm.
describe('gateway over real reference servers', () => {
  let h: Harness;
  const tmp = tempDir();
  beforeAll(async () => {
    h = await harness(referenceServers(tmp.dir), tmp.dir);
    const reports = await h.gateway.sync(ME);
    expect(reports.map((r) => [r.server, r.status])).toEqual([
      ['everything', 'success'],
      ['filesystem', 'success'],
      ['memory', 'success'],
    ]);
  });
  afterAll(async () => {
    await h.close();
    tmp.cleanup();
  });

  it('stores every listed tool and reports servers', async () => {
    const servers = h.gateway.listServers(ME);
    expect(servers.find((s) => s.id === 'everything')?.toolCount).toBeGreaterThanOrEqual(10);
    expect(servers.find((s) => s.id === 'memory')?.toolCount).toBe(9);
    expect(await h.store.checkIntegrity()).toBe('ok');
  });

  it('finds tools by plain words and by exact name', () => {
    expect(h.gateway.searchTools(ME, 'create_entities')[0]?.key).toBe('memory/create_entities');
    expect(h.gateway.searchTools(ME, 'everything/echo')[0]?.key).toBe('everything/echo');
    const sum = h.gateway.searchTools(ME, 'add two numbers together', { limit: 3 }).map((r) => r.key);
    expect(sum).toContain('everything/get-sum');
    const top = h.gateway.searchTools(ME, 'list files in a directory', { limit: 5 }).map((r) => r.key);
    expect(top).toContain('filesystem/list_directory');
  });

  it('describes a tool with its full schema', async () => {
    const d = await h.gateway.describeTool(ME, 'everything/get-sum');
    expect(d.inputSchema).toMatchObject({ type: 'object', properties: { a: {}, b: {} } });
    expect(d.serverStatus).toBe('success');
  });

  it('calls echo, get-sum, memory and filesystem tools', async () => {
    const echo = await h.gateway.callTool(ME, 'everything/echo', { message: 'hi carte' });
    expect(JSON.stringify(echo.content)).toContain('hi carte');
    const sum = await h.gateway.callTool(ME, 'everything/get-sum', { a: 2, b: 40 });
    expect(JSON.stringify(sum.content)).toContain('42');
    await h.gateway.callTool(ME, 'memory/create_entities', {
      entities: [{ name: 'Carte', entityType: 'project', observations: ['an MCP gateway'] }],
    });
    const graph = await h.gateway.callTool(ME, 'memory/read_graph', {});
    expect(JSON.stringify(graph)).toContain('an MCP gateway');
    const dir = await h.gateway.callTool(ME, 'filesystem/list_directory', { path: join(tmp.dir, 'sandbox') });
    expect(dir.isError).not.toBe(true);
  });

  it('rejects arguments that violate the schema, listing every violation', async () => {
    await expect(h.gateway.callTool(ME, 'everything/get-sum', { a: 'two' })).rejects.toThrow(
      `arguments for "everything/get-sum" do not match its input schema: (root) must have required property 'b'; /a must be number`,
    );
  });

  it('answers an unknown key with the closest keys', async () => {
    await expect(h.gateway.callTool(ME, 'memory/create_entity', {})).rejects.toThrow(
      'unknown tool "memory/create_entity"; did you mean "memory/create_entities"?',
    );
  });

  it('relays progress for a long-running operation', async () => {
    const seen: number[] = [];
    const result = await h.gateway.callTool(
      ME,
      'everything/trigger-long-running-operation',
      { duration: 1, steps: 3 },
      {
        onProgress: (p) => seen.push(p.progress),
      },
    );
    expect(result.isError).not.toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it('cancels an upstream call when the caller aborts', async () => {
    const abort = new AbortController();
    const call = h.gateway.callTool(
      ME,
      'everything/trigger-long-running-operation',
      { duration: 30, steps: 30 },
      { signal: abort.signal },
    );
    setTimeout(() => abort.abort(), 300);
    await expect(call).rejects.toMatchObject({ code: 'cancelled' });
    // the server is still usable afterwards
    const echo = await h.gateway.callTool(ME, 'everything/echo', { message: 'still here' });
    expect(JSON.stringify(echo.content)).toContain('still here');
  });
});
