import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createMcpServer } from '../../../src/mcp/index.js';
import { LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { fixture, harness, stdioServer, tempDir, type Harness } from '../helpers.js';

// Slow: what an agent is shown through the MCP face never carries the operator's command lines,
// paths, env or an upstream's stderr (issue 13). The config uses distinctive values to look for.
const DISTINCT = '/opt/carte-distinctive-7f3q/bin/no-such-server';
const SECRET_ARG = '--token-file=/home/op/carte-distinctive-secret';

describe('agent-facing answers keep to what an agent can act on', () => {
  let h: Harness;
  let client: Client;
  const dir = tempDir().dir;
  const good = fixture('flaky', 'paginated.mjs');

  beforeAll(async () => {
    const first = await harness([good], dir);
    await first.gateway.sync(ME);
    await first.close();
    // Same config hash, but the command now exits at start: cached tools stay, calls fail.
    const broken = { ...fixture('flaky', 'exit-at-start.mjs', { env: { HOME_PATH: DISTINCT } }) };
    h = await harness(
      [
        { ...broken, configHash: good.configHash },
        fixture('paged', 'paginated.mjs', { env: { API_KEY: 'sk-distinctive-env-value' } }),
        {
          ...stdioServer('ghost', [SECRET_ARG]),
          target: { kind: 'stdio', command: DISTINCT, args: [SECRET_ARG], env: {} },
          display: `${DISTINCT} ${SECRET_ARG}`,
        },
        fixture('off', 'paginated.mjs', { enabled: false }),
      ],
      dir,
    );
    await h.gateway.sync(ME, { server: 'paged' });
    await h.gateway.sync(ME, { server: 'ghost' });
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
  const leaks = (text: string) =>
    ['carte-distinctive', 'FOO_TOKEN', 'stderr', process.execPath, 'fixtures/'].filter((s) =>
      text.includes(s),
    );

  it('browse_tools {} answers servers with id, description, tool count and usable (with a reason) only', async () => {
    const r = await call('browse_tools', {});
    const text = (r.content as Array<{ text: string }>)[0]!.text;
    expect(leaks(text)).toEqual([]);
    expect(JSON.parse(text)).toMatchObject({
      kind: 'menu',
      hot: [],
      servers: [
        { id: 'flaky', toolCount: 7, usable: true },
        { id: 'paged', toolCount: 7, usable: true },
        { id: 'ghost', toolCount: 0, usable: false, reason: 'discovery failed; ask the operator' },
        { id: 'off', toolCount: 0, usable: false, reason: 'disabled by the operator' },
      ],
    });
  });

  it('one server: its visible tools and whether it is usable', async () => {
    const r = await call('browse_tools', { server: 'ghost' });
    const text = (r.content as Array<{ text: string }>)[0]!.text;
    expect(leaks(text)).toEqual([]);
    expect(JSON.parse(text)).toMatchObject({
      kind: 'tools',
      scope: { server: 'ghost' },
      usable: false,
      total: 0,
    });
  });

  it('a failed discovery: the agent is told to ask, the operator gets the reason', async () => {
    const r = await call('call_tool', { key: 'ghost/anything', arguments: {} });
    const text = (r.content as Array<{ text: string }>)[0]!.text;
    expect(text).toBe(
      'unknown tool "ghost/anything": server "ghost" has no tools in the catalog because its discovery failed; `carte servers` says why',
    );
    expect((await h.store.servers.get('ghost'))?.lastError).toBe(
      `server "ghost" cannot start: command "${DISTINCT}" was not found`,
    );
  });

  it('an upstream that dies: no stderr tail in the text or the error metadata', async () => {
    const r = await call('call_tool', { key: 'flaky/page_tool_1', arguments: {} });
    expect(r.isError).toBe(true);
    const all = JSON.stringify(r);
    expect(leaks(all)).toEqual([]);
    expect((r.content as Array<{ text: string }>)[0]!.text).toBe(
      'server "flaky" closed the connection during tools/call "page_tool_1"',
    );
  });

  it('carte servers keeps the operational detail (listServers)', () => {
    const ghost = h.gateway.listServers(ME).find((s) => s.id === 'ghost');
    expect(ghost).toMatchObject({ target: `${DISTINCT} ${SECRET_ARG}`, status: 'failed' });
  });
});
