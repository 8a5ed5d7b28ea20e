// The optional fifth meta-tool, request_server (issue 15), through a real MCP client: off, the
// listing is the four tools; on, an agent's proposal is refused, held or approved at once exactly
// as `carte register` would, against a real config file, store and upstream server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { loadConfigFile } from '../../../src/config/index.js';
import {
  compileRules,
  createToken,
  Gateway,
  LOCAL_CALLER,
  listApprovals,
  openStore,
  projectsFromConfig,
  serversFromConfig,
  type ApprovalSite,
  type CallerContext,
  type Store,
} from '../../../src/gateway/index.js';
import { createHttpApp, listenHttp } from '../../../src/http/index.js';
import { createMcpServer } from '../../../src/mcp/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { FIXTURES, memoryLogger, referenceEntry, ROOT, tempDir } from '../helpers.js';

const tmp = tempDir('carte-request-server-');
const configPath = join(tmp.dir, 'carte.yaml');
const node = process.execPath;
writeFileSync(
  configPath,
  [
    '# kept across agent requests',
    'servers:',
    `  pages: { command: ${JSON.stringify(node)}, args: [${JSON.stringify(join(FIXTURES, 'paginated.mjs'))}] }`,
    'registration:',
    '  agentRequests: true',
    '  allow: { commands: [node] }',
    '',
  ].join('\n'),
);
const AGENT: CallerContext = { projectId: 'default', scopes: ['call'], tokenId: 'tok_agent' };
const SECRET = 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';

let store: Store;
let gateway: Gateway;
let site: ApprovalSite;
const clients: Client[] = [];

async function connect(agentRequests: boolean): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(gateway, AGENT, agentRequests ? { agentRequests: site } : {}).connect(serverSide);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

type Answer = {
  isError?: boolean;
  content: Array<{ text: string }>;
  structuredContent?: Record<string, unknown>;
};
const call = async (client: Client, args: Record<string, unknown>) =>
  (await client.request({
    method: 'tools/call',
    params: { name: 'request_server', arguments: args },
  })) as unknown as Answer;

beforeAll(async () => {
  const config = loadConfigFile(configPath, { env: {} }).config!;
  store = await openStore(join(tmp.dir, 'carte.db'));
  gateway = await Gateway.open({
    servers: serversFromConfig(config),
    store,
    logger: memoryLogger(),
    rules: compileRules(config.rules),
    projects: projectsFromConfig(config),
  });
  await gateway.sync(LOCAL_CALLER);
  site = { gateway, store, configPath, env: {}, dataDir: tmp.dir };
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await gateway.close();
  await store.close();
  tmp.cleanup();
});

describe('request_server off (the default)', () => {
  it('lists exactly the four meta-tools and answers request_server as an unknown tool', async () => {
    const client = await connect(false);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_tools', 'browse_tools', 'describe_tool', 'call_tool']);
    const r = await call(client, { id: 'x', command: 'deno' });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toBe(
      'unknown meta-tool "request_server"; the tools are search_tools, browse_tools, describe_tool, call_tool',
    );
    expect(await store.proposals.list({})).toEqual([]);
  });
});

describe('request_server on', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(true);
  });

  it('is listed fifth, after the four unchanged tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'search_tools',
      'browse_tools',
      'describe_tool',
      'call_tool',
      'request_server',
    ]);
  });

  it('refuses an inline secret, naming the field, without echoing it or storing anything', async () => {
    const r = await call(client, {
      id: 'leaky',
      command: 'deno',
      args: ['run', 'server.ts'],
      env: { API_KEY: SECRET },
    });
    expect(r.isError).toBe(true);
    const text = r.content[0]!.text;
    expect(text).toMatch(
      /^server "leaky" was refused; nothing was stored:\n {2}servers\.leaky\.env\.API_KEY: /,
    );
    expect(JSON.stringify(r)).not.toContain(SECRET);
    expect(await store.proposals.list({})).toEqual([]);
    expect(readFileSync(configPath, 'utf8')).not.toContain('leaky');
  });

  it('holds an unlisted command as pending, listed in approvals, nothing started', async () => {
    const r = await call(client, {
      id: 'denoserver',
      command: 'deno',
      args: ['run', 'server.ts'],
      reason: 'I need to read Deno docs',
    });
    expect(r.isError).toBeFalsy();
    const answer = r.structuredContent as { status: string; id: string; message: string };
    expect(answer).toMatchObject({
      status: 'pending',
      server: 'denoserver',
      id: expect.stringMatching(/^prop_/),
    });
    expect(answer.message).toContain(`carte approve ${answer.id}`);
    const pending = (await listApprovals(LOCAL_CALLER, site)).proposals;
    expect(pending).toMatchObject([
      { id: answer.id, server: 'denoserver', source: 'agent:tok_agent', problems: [] },
    ]);
    expect(gateway.listServers(LOCAL_CALLER).map((s) => s.id)).toEqual(['pages']);
    expect(readFileSync(configPath, 'utf8')).not.toContain('denoserver');
    await gateway.audit.settle(); // the admin row is an event, written after the answer
    const audit = await store.activity.audit({ kinds: ['admin'] });
    expect(audit.map((a) => [a.server, a.outcome])).toContainEqual(['denoserver', 'ok']);
  });

  it('approves an allowlisted command at once: written, discovered, searchable', async () => {
    const r = await call(client, { id: 'memory', command: node, args: [referenceEntry('server-memory')] });
    expect(r.isError).toBeFalsy();
    const answer = r.structuredContent as { status: string; tools: number; message: string };
    expect(answer).toMatchObject({ status: 'approved', server: 'memory' });
    expect(answer.tools).toBeGreaterThan(0);
    expect(answer.message).toContain('matches registration.allow.commands "node"');
    const text = readFileSync(configPath, 'utf8');
    expect(text).toContain('# kept across agent requests');
    expect(text).toContain('memory:');
    const found = gateway.searchTools(AGENT, 'create entities in the knowledge graph');
    expect(found.map((f) => f.key)).toContain('memory/create_entities');
  });

  it('refuses an id that is already taken', async () => {
    const r = await call(client, { id: 'memory', command: node, args: [referenceEntry('server-memory')] });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain(`servers.memory: server "memory" is already in the config`);
  });
});

describe('request_server over /mcp (registration.agentRequests passed to the HTTP app)', () => {
  it('is listed for a call-scope token and holds a proposal as pending, sourced to the token', async () => {
    const minted = await createToken(store, { project: 'default', scopes: ['call'] }, Date.now());
    const deps = { gateway, store, configPath, env: {}, dataDir: tmp.dir };
    const server = await listenHttp(createHttpApp(deps, { agentRequests: true }), {
      host: '127.0.0.1',
      port: 0,
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${minted.token}` } },
    });
    const client = new Client({ name: 'http', version: '0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('request_server');
      const r = await call(client, { id: 'viahttp', command: 'deno', args: ['run', 'server.ts'] });
      expect(r.structuredContent).toMatchObject({ status: 'pending', server: 'viahttp' });
      const held = (await store.proposals.list({ status: 'pending' })).find((p) => p.serverId === 'viahttp');
      expect(held?.source).toMatch(/^agent:tok_/);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});

describe('carte serve over stdio with registration.agentRequests (needs npm run build)', () => {
  it('lists request_server and holds a proposal as pending without writing the config', async () => {
    const dir = tempDir('carte-request-server-cli-');
    const file = join(dir.dir, 'carte.yaml');
    const pages = `{ command: ${JSON.stringify(node)}, args: [${JSON.stringify(join(FIXTURES, 'paginated.mjs'))}] }`;
    writeFileSync(file, `servers:\n  pages: ${pages}\nregistration: { agentRequests: true }\n`);
    const args = [
      join(ROOT, 'bin', 'carte.js'),
      'serve',
      '--config',
      file,
      '--data-dir',
      join(dir.dir, 'data'),
    ];
    const client = new Client({ name: 'cli', version: '0' });
    try {
      await client.connect(new StdioClientTransport({ command: node, args, stderr: 'pipe' }));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).at(-1)).toBe('request_server');
      const r = await call(client, { id: 'viastdio', command: 'deno', args: ['run', 'server.ts'] });
      expect(r.structuredContent).toMatchObject({ status: 'pending', server: 'viastdio' });
      expect(readFileSync(file, 'utf8')).not.toContain('viastdio');
    } finally {
      await client.close();
      dir.cleanup();
    }
  });
});
