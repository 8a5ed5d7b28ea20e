// Slow: one Carte for every stdio session (issue 27, item 4; docs/operations.md). Real processes:
// `carte serve --http` as the daemon on a temp data dir, and `carte serve` on stdio started as a
// client starts it (the v2 SDK's stdio transport, or raw pipes where every stdout line is checked).
// The upstream is a fixture that logs its pid, so the test counts the upstream processes alive.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { FIXTURES, ROOT, tempDir } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir('carte-relay-');
const config = join(tmp.dir, 'carte.yaml');
const dataDir = join(tmp.dir, 'data');
const spawnLog = join(tmp.dir, 'spawns');
const socket = join(dataDir, 'carte.sock');
const serveArgs = [BIN, 'serve', '--config', config, '--data-dir', dataDir];

type ToolResult = { content?: Array<{ type: string; text?: string }>; isError?: boolean };
const text = (r: unknown) => (r as ToolResult).content?.[0]?.text ?? '';

beforeAll(() => {
  writeFileSync(
    config,
    [
      'servers:',
      '  f:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(join(FIXTURES, 'spawn-counter.mjs'))}]`,
      `    env: { SPAWN_LOG: ${JSON.stringify(spawnLog)} }`,
      '',
    ].join('\n'),
  );
});
afterAll(() => tmp.cleanup());

/** The upstream processes alive now (each fixture process logged its pid at start). */
function upstreamsAlive(): number {
  let log: string;
  try {
    log = readFileSync(spawnLog, 'utf8');
  } catch {
    return 0;
  }
  return log
    .split('\n')
    .filter(Boolean)
    .filter((pid) => {
      try {
        process.kill(Number(pid), 0);
        return true;
      } catch {
        return false;
      }
    }).length;
}

interface Daemon {
  child: ChildProcess;
  base: string;
  stderr: () => string;
}

const children: ChildProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await waitFor(() => upstreamsAlive() === 0, 10_000);
});

async function startDaemon(): Promise<Daemon> {
  const child = spawn(process.execPath, [...serveArgs, '--http', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await waitFor(() => stderr.includes('Serving HTTP now'), 60_000);
  const base = /MCP endpoint \(Streamable HTTP, both protocol eras\): (http:\/\/\S+)\/mcp/.exec(stderr)![1]!;
  return { child, base, stderr: () => stderr };
}

/** A stdio session as a client starts one; its stderr is kept. */
async function session(
  extra: string[] = [],
  era: 'legacy' | 'modern' = 'legacy',
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...serveArgs, ...extra],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client(
    { name: 'relay-e2e', version: '0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

const echo = (client: Client, words: string) =>
  client.callTool({ name: 'call_tool', arguments: { key: 'f/echo', arguments: { text: words } } });

describe('with a daemon serving the data dir', () => {
  it('three stdio sessions (and a 2026-era one) relay to it and share one upstream process; the socket is 0600', async () => {
    const daemon = await startDaemon();
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    const sessions = [await session(), await session(), await session()];
    for (const [i, s] of sessions.entries()) {
      expect((await s.client.listTools()).tools).toHaveLength(4);
      expect(text(await echo(s.client, `hello ${i}`))).toBe(`hello ${i}`);
      expect(s.stderr()).toContain(`Relaying this session to the Carte serving ${dataDir}`);
    }
    // A 2026-07-28 client (no initialize, no session) is relayed too.
    const modern = await session([], 'modern');
    expect(modern.client.getProtocolEra()).toBe('modern');
    expect((await modern.client.listTools()).tools).toHaveLength(4);
    expect(text(await echo(modern.client, 'modern'))).toBe('modern');
    expect(modern.stderr()).toContain('Relaying');
    expect(upstreamsAlive()).toBe(1);
    // A session started with --standalone runs its own gateway, as before.
    const own = await session(['--standalone']);
    expect(text(await echo(own.client, 'own'))).toBe('own');
    expect(own.stderr()).not.toContain('Relaying');
    expect(upstreamsAlive()).toBe(2);
    expect(daemon.stderr()).toContain(`relay to this process, over ${socket}`);
  });

  it('refuses a TCP request without a token as before, even one naming a project', async () => {
    const daemon = await startDaemon();
    const initialize = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
    };
    const post = await fetch(`${daemon.base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-carte-project': 'default',
      },
      body: JSON.stringify(initialize),
    });
    expect(post.status).toBe(401);
    expect(
      (await fetch(`${daemon.base}/api/v1/me`, { headers: { 'x-carte-project': 'default' } })).status,
    ).toBe(401);
  });

  it('refuses a --project the daemon does not have, as the standalone path does', async () => {
    await startDaemon();
    const child = spawn(process.execPath, [...serveArgs, '--project', 'nope'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(64);
    expect(stderr).toContain('carte: --project "nope" is not a configured project; the projects are default');
  });

  it('SIGKILL of the daemon mid-call: that call fails, the next ones are served in process; stdout is protocol only', async () => {
    const daemon = await startDaemon();
    const relay = rawSession();
    relay.send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    await relay.answer(0);
    relay.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const call = (id: number, tool: string, args: object) =>
      relay.send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'call_tool', arguments: { key: `f/${tool}`, arguments: args } },
      });
    call(1, 'echo', { text: 'one' });
    expect(JSON.stringify(await relay.answer(1))).toContain('"text":"one"');
    expect(upstreamsAlive()).toBe(1);
    call(2, 'slow', { ms: 5000 });
    await new Promise((r) => setTimeout(r, 500));
    daemon.child.kill('SIGKILL');
    expect(await relay.answer(2)).toMatchObject({
      error: {
        code: -32603,
        message:
          'the Carte daemon went away during this request; Carte now serves this session in process: try again',
      },
    });
    call(3, 'echo', { text: 'three' });
    expect(JSON.stringify(await relay.answer(3))).toContain('"text":"three"');
    call(4, 'echo', { text: 'four' });
    expect(JSON.stringify(await relay.answer(4))).toContain('"text":"four"');
    relay.send({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    expect(JSON.stringify(await relay.answer(5))).toContain('call_tool');
    // The replayed initialize's answer never reaches the client; every line is a JSON-RPC message.
    expect(relay.lines().every((l) => (JSON.parse(l) as { jsonrpc?: string }).jsonrpc === '2.0')).toBe(true);
    expect(relay.lines().filter((l) => l.includes('"protocolVersion"'))).toHaveLength(1);
    expect(relay.stderr()).toContain('went away');
  });

  it('a stale socket (the daemon was killed) means standalone; the next daemon replaces it', async () => {
    const first = await startDaemon();
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(statSync(socket).isSocket()).toBe(true);
    const alone = await session();
    expect(text(await echo(alone.client, 'alone'))).toBe('alone');
    expect(alone.stderr()).not.toContain('Relaying');
    await startDaemon();
    const relayed = await session();
    expect(text(await echo(relayed.client, 'relayed'))).toBe('relayed');
    expect(relayed.stderr()).toContain('Relaying');
  });
});

describe('with no daemon', () => {
  it('each stdio session runs its own gateway, as before', async () => {
    const sessions = [await session(), await session(), await session()];
    for (const s of sessions) {
      expect(text(await echo(s.client, 'alone'))).toBe('alone');
      expect(s.stderr()).not.toContain('Relaying');
    }
    expect(upstreamsAlive()).toBe(3);
  });
});

/** `carte serve` on raw pipes: messages in, every stdout line kept. */
function rawSession() {
  const child = spawn(process.execPath, serveArgs, { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = () => stdout.split('\n').filter(Boolean);
  return {
    send: (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`),
    lines,
    stderr: () => stderr,
    async answer(id: number): Promise<unknown> {
      const find = () => lines().find((l) => (JSON.parse(l) as { id?: unknown }).id === id);
      await waitFor(() => find() !== undefined, 30_000);
      return JSON.parse(find()!) as unknown;
    },
  };
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
