import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT, referenceEntry, tempDir } from '../helpers.js';
import { SERVE_NODE_FLAGS } from '../../../src/cli/shared/snippet.js';

// Slow: runs the built CLI (`npm test` builds first) as a real process over stdio.
const run = promisify(execFile);
const BIN = join(ROOT, 'bin', 'carte.js');
const INSPECTOR = join(ROOT, 'node_modules', '.bin', 'mcp-inspector');
const tmp = tempDir();
const config = join(tmp.dir, 'carte.yaml');
const dataDir = join(tmp.dir, 'data');
const serveArgs = [BIN, 'serve', '--config', config, '--data-dir', dataDir];

beforeAll(() => {
  writeFileSync(
    config,
    [
      '# test config',
      'servers:',
      '  everything:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(referenceEntry('server-everything'))}, stdio]`,
      '  memory:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(referenceEntry('server-memory'))}]`,
      '    env: { MEMORY_FILE_PATH: "${dataDir}/memory.jsonl" }',
      'rules:',
      "  - { match: '*delete*', enabled: false }",
      '  - { match: everything/echo, pin: true }',
      '',
    ].join('\n'),
  );
});
afterAll(() => tmp.cleanup());

describe('carte serve over stdio', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'e2e', version: '0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: serveArgs, stderr: 'pipe' }),
    );
  });
  afterAll(async () => client.close());

  it('lists four meta-tools and searches, describes and calls through them', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_tools', 'browse_tools', 'describe_tool', 'call_tool']);
    const found = await client.callTool({
      name: 'search_tools',
      arguments: { query: 'create entities in the knowledge graph', limit: 3 },
    });
    expect(JSON.stringify(found.structuredContent)).toContain('memory/create_entities');
    const echo = await client.callTool({
      name: 'call_tool',
      arguments: { key: 'everything/echo', arguments: { message: 'over stdio' } },
    });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: over stdio' }]);
  });

  it("serves the menu with the config's rules: pinned first, hidden tools nowhere", async () => {
    const menu = await client.callTool({ name: 'browse_tools', arguments: { maxTokens: 2000 } });
    const answer = menu.structuredContent as {
      hot: { key: string; pinned?: boolean }[];
      categories: unknown[];
    };
    expect(answer.hot[0]).toMatchObject({ key: 'everything/echo', pinned: true });
    expect(answer.categories.length).toBeGreaterThan(0);
    const page = await client.callTool({ name: 'browse_tools', arguments: { server: 'memory' } });
    const keys = (page.structuredContent as { tools: { key: string }[] }).tools.map((t) => t.key);
    expect(keys).toContain('memory/create_entities');
    expect(keys.filter((k) => k.includes('delete'))).toEqual([]);
    const hidden = await client.callTool({
      name: 'describe_tool',
      arguments: { key: 'memory/delete_entities' },
    });
    expect(hidden.isError).toBe(true);
  });
});

describe('what the process writes', () => {
  it('writes only JSON-RPC messages to stdout; progress and help go to stderr', async () => {
    const child = spawn(process.execPath, serveArgs, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const deadline = Date.now() + 30_000;
    while (!stdout.includes('"id":2') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(stderr).toContain('"mcpServers"');
    expect(stderr).toContain('Serving MCP on stdio');
    // The shell examples reach this catalog, not the default one.
    expect(stderr).toContain(
      `Try it from a shell:\n  node ${BIN} --config ${config} --data-dir ${dataDir} search `,
    );
  });
});

describe('carte serve with a flag of --http alone', () => {
  it.each([
    [
      ['--port', '8000'],
      '--port needs --http: carte serve without it serves MCP on stdio, which has no address',
    ],
    [
      ['--anonymous-project', 'default'],
      '--anonymous-project needs --http: carte serve without it serves MCP on stdio, which has no anonymous access',
    ],
  ])('%j is refused, not dropped', async (extra, message) => {
    const r = await run(process.execPath, [...serveArgs, ...extra], { timeout: 20_000 }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(r).toMatchObject({ code: 64, stderr: `carte: ${message}\n` });
  });
});

describe('the printed client snippet', () => {
  it('reaches the same catalog when the config and data dir came from the environment', async () => {
    const env = { ...process.env, CARTE_CONFIG: config, CARTE_DATA_DIR: dataDir };
    const child = spawn(process.execPath, [BIN, 'serve', '--no-sync'], { env, cwd: tmp.dir });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const deadline = Date.now() + 30_000;
    while (!stderr.includes('Serving MCP') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
    const snippet = JSON.parse(/\{\n {2}"mcpServers"[\s\S]*?\n\}/.exec(stderr)![0]) as {
      mcpServers: { carte: { command: string; args: string[] } };
    };
    const { command, args } = snippet.mcpServers.carte;
    expect(args).toEqual([...SERVE_NODE_FLAGS, BIN, 'serve', '--config', config, '--data-dir', dataDir]);
    // A client runs it with its own environment and working directory: the same catalog answers.
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CARTE_')));
    const client = new Client({ name: 'snippet', version: '0' });
    await client.connect(
      new StdioClientTransport({
        command,
        args: [...args, '--no-sync'],
        env: clean as Record<string, string>,
        cwd: ROOT,
        stderr: 'ignore',
      }),
    );
    const r = await client.callTool({ name: 'browse_tools', arguments: {} });
    const text = (r.content as Array<{ text: string }>)[0]!.text;
    expect((JSON.parse(text) as { servers: { id: string }[] }).servers.map((s) => s.id)).toEqual([
      'everything',
      'memory',
    ]);
    await client.close();
  });
});

describe('a real MCP client: the inspector CLI', () => {
  const inspect = (...args: string[]) =>
    run(INSPECTOR, ['--cli', ...args, '--format', 'json', '-q', '--', process.execPath, ...serveArgs], {
      env: { ...process.env, HOME: tmp.dir },
      timeout: 60_000,
    });

  it('lists exactly four tools', async () => {
    const { stdout } = await inspect('--method', 'tools/list');
    const names = (JSON.parse(stdout) as { result: { tools: Array<{ name: string }> } }).result.tools.map(
      (t) => t.name,
    );
    expect(names).toEqual(['search_tools', 'browse_tools', 'describe_tool', 'call_tool']);
  });

  it('calls call_tool with everything/echo', async () => {
    const { stdout } = await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'call_tool',
      '--tool-arg',
      'key=everything/echo',
      '--tool-arg',
      'arguments={"message":"hi inspector"}',
    );
    expect(JSON.parse(stdout)).toEqual({
      result: { content: [{ type: 'text', text: 'Echo: hi inspector' }] },
    });
  });
});
