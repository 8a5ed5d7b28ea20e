// Slow: /mcp on a real socket (port 0) with the real upstream everything server behind it, driven
// by the v2 client in both eras: modern pinned to 2026-07-28 (no session) and legacy 2025-11-25
// (a Mcp-Session-Id session). Then `carte serve --http` as a process: start message, login, stop.
import { spawn, spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createToken, LOCAL_CALLER as ME } from '../../../src/gateway/index.js';
import { createHttpApp, listenHttp, type HttpApp, type HttpServerHandle } from '../../../src/http/index.js';
import { harness, referenceEntry, ROOT, stdioServer, tempDir, type Harness } from '../helpers.js';

type ToolResult = { content?: Array<{ type: string; text?: string }>; isError?: boolean };
const text = (r: unknown) => (r as ToolResult).content?.[0]?.text ?? '';

let h: Harness;
let app: HttpApp;
let server: HttpServerHandle;
let token: string;

beforeAll(async () => {
  h = await harness([stdioServer('everything', [referenceEntry('server-everything'), 'stdio'])]);
  await h.gateway.sync(ME);
  token = (await createToken(h.store, { project: 'default', scopes: ['call'] }, Date.now())).token;
  app = createHttpApp({ gateway: h.gateway, store: h.store });
  server = await listenHttp(app, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server?.stop();
  await h?.close();
});

async function connect(era: 'modern' | 'legacy', bearer = token) {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${bearer}` } },
  });
  const client = new Client(
    { name: `http-${era}`, version: '0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  return { client, transport };
}

describe.each(['modern', 'legacy'] as const)('/mcp, %s era', (era) => {
  it('lists the meta-tools, searches and calls through the real upstream', async () => {
    const { client, transport } = await connect(era);
    try {
      expect(client.getProtocolEra()).toBe(era);
      if (era === 'legacy') expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      else expect(transport.sessionId).toBeUndefined();
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        'search_tools',
        'browse_tools',
        'describe_tool',
        'call_tool',
      ]);
      const found = await client.callTool({
        name: 'search_tools',
        arguments: { query: 'echo a message', limit: 3 },
      });
      expect((JSON.parse(text(found)) as { results: Array<{ key: string }> }).results[0]?.key).toBe(
        'everything/echo',
      );
      const called = await client.callTool({
        name: 'call_tool',
        arguments: { key: 'everything/echo', arguments: { message: `through http, ${era}` } },
      });
      expect(called.isError).not.toBe(true);
      expect(text(called)).toContain(`through http, ${era}`);
    } finally {
      await client.close();
    }
  });
});

describe('/mcp sessions and scopes', () => {
  it('a legacy client that closes ends its session (DELETE)', async () => {
    const { client, transport } = await connect('legacy');
    expect(app.mcp.sessions.size).toBeGreaterThanOrEqual(1);
    const before = app.mcp.sessions.size;
    await transport.terminateSession();
    await client.close();
    expect(app.mcp.sessions.size).toBe(before - 1);
  });

  it('a search-only token may search but call_tool is denied by the gateway', async () => {
    const weak = (await createToken(h.store, { project: 'default', scopes: ['search'] }, Date.now())).token;
    const { client } = await connect('modern', weak);
    try {
      const r = (await client.callTool({
        name: 'call_tool',
        arguments: { key: 'everything/echo', arguments: { message: 'x' } },
      })) as ToolResult;
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/needs the call scope/);
    } finally {
      await client.close();
    }
  });
});

describe('guard on the socket', () => {
  const raw = (headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${server.url}/healthz`, { headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });

  it('refuses a rebound Host and a foreign Origin, accepts its own', async () => {
    const own = new URL(server.url).host;
    expect(await raw({ host: `evil.example.com:${server.port}` })).toBe(403);
    expect(await raw({ host: own, origin: 'http://evil.example.com' })).toBe(403);
    expect(await raw({ host: own, origin: `http://${own}` })).toBe(200);
    expect(await raw({ host: `localhost:${server.port}`, origin: `http://localhost:${server.port}` })).toBe(
      200,
    );
  });
});

describe('listen', () => {
  it('names a port in use and says what to do', async () => {
    const again = createHttpApp({ gateway: h.gateway, store: h.store });
    await expect(listenHttp(again, { host: '127.0.0.1', port: server.port })).rejects.toThrow(
      `port ${server.port} on 127.0.0.1 is in use; pass --port with another port (0 picks a free one)`,
    );
    await again.close();
  });
});

describe('carte serve --http', () => {
  it('prints the menu URL with a login code, the /mcp URL and snippets; the code works once; SIGTERM stops it', async () => {
    const t = tempDir();
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'carte.js'), 'serve', '--http', '--port', '0'], {
      env: { ...process.env, CARTE_DATA_DIR: t.dir, CARTE_CONFIG: '' },
      cwd: t.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitFor(() => stderr.includes('Serving HTTP now'), 60_000);
      const menu =
        /Open the menu \(the link logs you in once, for 12 hours\): (http:\/\/127\.0\.0\.1:\d+)\/#login=(\S+)/.exec(
          stderr,
        );
      expect(menu).not.toBeNull();
      const [, base, code] = menu!;
      expect(stderr).toContain(`MCP endpoint (Streamable HTTP, both protocol eras): ${base}/mcp`);
      expect(stderr).toContain(`"url": "${base}/mcp"`);
      expect(stderr).toContain('"command": ');
      // The token hint is a command line that runs as printed.
      const bin = join(ROOT, 'bin', 'carte.js');
      expect(stderr).toContain(
        `(make a token: ${process.execPath} ${bin} token create --project default --scope call --data-dir ${t.dir}):`,
      );
      const login = (c: string) =>
        fetch(`${base}/api/v1/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code: c }),
        });
      const first = await login(code!);
      expect(first.status).toBe(200);
      const grant = (await first.json()) as { token: string };
      expect((await login(code!)).status).toBe(401);
      // The login token works on /mcp, modern era.
      const client = new Client(
        { name: 'login', version: '0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${grant.token}` } },
        }),
      );
      expect((await client.listTools()).tools).toHaveLength(4);
      await client.close();
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      // The start message's token command runs as printed, from anywhere, into this Carte's store.
      const hint = /\(make a token: (.+)\):\n/.exec(stderr);
      expect(hint).not.toBeNull();
      const [command = '', ...args] = hint![1]!.split(' ');
      const made = spawnSync(command, args, {
        env: { ...process.env, CARTE_DATA_DIR: '', CARTE_CONFIG: '' },
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(made.status, made.stderr).toBe(0);
      const me = await fetch(`${base}/api/v1/me`, {
        headers: { authorization: `Bearer ${made.stdout.trim()}` },
      });
      expect(me.status).toBe(200);
      // Nothing but nothing on stdout; the token never reaches a log.
      expect(stdout).toBe('');
      expect(stderr).not.toContain(grant.token);
      child.kill('SIGTERM');
      expect(await exited).toBe(143);
    } finally {
      child.kill('SIGKILL');
      t.cleanup();
    }
  });
});

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
