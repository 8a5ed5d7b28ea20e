import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { LOCAL_CALLER as ME, type GatewayServer } from '../../../src/gateway/index.js';
import type { UpstreamTarget } from '../../../src/upstream/index.js';
import { harness, referenceEntry, startHttpFixture, type Harness } from '../helpers.js';

// Slow: a real HTTP upstream (test/fixtures/http-server.mjs) on a random port.
const children: ChildProcess[] = [];
let open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.map((h) => h.close()));
  open = [];
});
afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

/** A port nothing listens on: bind, read it, close. */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

function remote(id: string, url: string, transport?: 'sse' | 'streamable-http'): GatewayServer {
  const target: UpstreamTarget = {
    kind: 'remote',
    url,
    headers: { 'X-Test': 'yes' },
    ...(transport ? { transport } : {}),
  };
  return {
    id,
    enabled: true,
    timeoutMs: 10_000,
    discoveryTimeoutMs: 10_000,
    idleTimeoutMs: 0,
    maxConcurrency: 16,
    maxQueue: 64,
    target,
    display: url,
    configHash: createHash('sha256').update(JSON.stringify(target)).digest('hex'),
  };
}

describe('remote upstreams', () => {
  it('Streamable HTTP: sync, call and progress', async () => {
    const url = await startHttpFixture(children);
    const h = await harness([remote('web', url, 'streamable-http')]);
    open.push(h);
    const [r] = await h.gateway.sync(ME);
    expect(r).toMatchObject({ status: 'success' });
    expect(r!.toolCount).toBeGreaterThanOrEqual(8);
    const echo = await h.gateway.callTool(ME, 'web/echo', { text: 'over http' });
    expect(JSON.stringify(echo.content)).toContain('over http');
    const seen: number[] = [];
    await h.gateway.callTool(
      ME,
      'web/slow',
      { ms: 200, steps: 3 },
      { onProgress: (p) => seen.push(p.progress) },
    );
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it('legacy SSE, and auto-detection falling back to it', async () => {
    const url = await startHttpFixture(children);
    const sse = url.replace(/\/mcp$/, '/sse');
    const h = await harness([remote('sse', sse, 'sse'), remote('auto', sse)]);
    open.push(h);
    const reports = await h.gateway.sync(ME);
    expect(reports.map((r) => [r.server, r.status])).toEqual([
      ['sse', 'success'],
      ['auto', 'success'],
    ]);
    const echo = await h.gateway.callTool(ME, 'auto/echo', { text: 'via sse' });
    expect(JSON.stringify(echo.content)).toContain('via sse');
  });

  it('an upstream answering HTTP 500 fails its discovery with a clear error', async () => {
    const url = await startHttpFixture(children, { FAIL_WITH_500: '1' });
    const h = await harness([remote('broken', url, 'streamable-http')]);
    open.push(h);
    const [r] = await h.gateway.sync(ME);
    expect(r?.status).toBe('failed');
    expect(r?.error).toMatch(/^server "broken" answered initialize with HTTP 500 /);
    expect(r?.error).not.toMatch(/SSE/);
  });

  it('a refused connection fails fast and names the server', async () => {
    const port = await freePort();
    const h = await harness([
      remote('gone', `http://127.0.0.1:${port}/mcp?api_key=SECRET`, 'streamable-http'),
    ]);
    open.push(h);
    const [r] = await h.gateway.sync(ME);
    expect(r?.status).toBe('failed');
    expect(r?.error).toBe(
      `server "gone" cannot be reached at http://127.0.0.1:${port}/mcp: connection refused`,
    );
  });

  it('reopens an expired HTTP session: repeats listings and idempotent calls, not the others', async () => {
    // The reference server keeps legacy sessions in memory: a restart on the same port forgets
    // them, so the next request with the old session id gets HTTP 404.
    const port = await freePort();
    const start = async (): Promise<ChildProcess> => {
      const child = spawn(process.execPath, [referenceEntry('server-everything'), 'streamableHttp'], {
        env: { ...process.env, PORT: String(port) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      children.push(child);
      await new Promise<void>((resolve, reject) => {
        let err = '';
        child.stderr.on('data', (c: Buffer) => {
          err += c.toString();
          if (err.includes('listening on port')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`everything exited with ${code}: ${err}`)));
      });
      return child;
    };
    let current = await start();
    const restart = async () => {
      const gone = new Promise((r) => current.once('exit', r));
      current.kill('SIGKILL');
      await gone;
      current = await start();
    };
    const h = await harness([remote('web', `http://127.0.0.1:${port}/mcp`, 'streamable-http')]);
    open.push(h);
    await h.gateway.sync(ME);
    await restart();
    const resynced = (await h.gateway.sync(ME))[0];
    expect(resynced).toMatchObject({ status: 'success' });
    await restart();
    const echo = await h.gateway.callTool(ME, 'web/echo', { message: 'repeated' });
    expect(JSON.stringify(echo.content)).toContain('repeated');
    await restart();
    await expect(h.gateway.callTool(ME, 'web/toggle-simulated-logging', {})).rejects.toThrow(
      'server "web" lost its HTTP session during tools/call "toggle-simulated-logging"; a new session is open, but the call was not repeated because the tool is not marked idempotent or read-only',
    );
    const after = await h.gateway.callTool(ME, 'web/toggle-simulated-logging', {});
    expect(after.isError).not.toBe(true);
  });
});
