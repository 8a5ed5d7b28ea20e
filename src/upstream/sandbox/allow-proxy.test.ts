import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAllowProxy } from './allow-proxy.js';
import { isGranted } from './grants.js';

describe('network grants', () => {
  it.each([
    [['api.example.com'], 'api.example.com', 443, true],
    [['api.example.com'], 'api.example.com', 8443, false],
    [['api.example.com:8443'], 'api.example.com', 8443, true],
    [['*.example.com'], 'a.b.example.com', 80, true],
    [['*.example.com'], 'example.com', 443, false],
    [['*.example.com'], 'badexample.com', 443, false],
    [['localhost:5173'], '127.0.0.1', 5173, true],
    [['localhost:5173'], '127.0.0.1', 5432, false],
    [[], 'api.example.com', 443, false],
  ])('%j grants %s:%i: %s', (grants, host, port, want) => {
    expect(isGranted(grants, host, port)).toBe(want);
  });
});

// Offline, a named host is made to resolve through the proxy's resolver seam, to a local server.
describe('the allowlist proxy', () => {
  let dir: string;
  let web: Server;
  let port: number;
  let proxy: { close(): void };
  const denied: string[] = [];
  const socket = () => join(dir, 'p.sock');
  const get = (url: string) =>
    new Promise<number>((ok) => {
      request({ socketPath: socket(), path: url, headers: { host: new URL(url).host } }, (r) => {
        r.resume();
        ok(r.statusCode ?? 0);
      }).end();
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'carte-proxy-'));
    web = createServer((_q, s) => s.end('hi'));
    await new Promise<void>((ok) => web.listen(0, '127.0.0.1', ok));
    port = (web.address() as { port: number }).port;
    const names: Record<string, string> = { 'public.test': '10.255.255.1', 'rebind.test': '127.0.0.1' };
    proxy = await startAllowProxy([`rebind.test:${port}`, `localhost:${port}`], socket(), {
      resolve: (h) => Promise.resolve(names[h] ?? '0.0.0.0'),
      denied: (d) => denied.push(d),
    });
  });
  afterAll(() => {
    proxy.close();
    web.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('forwards a granted loopback destination and refuses others', async () => {
    expect(await get(`http://localhost:${port}/`)).toBe(200);
    expect(await get(`http://localhost:${port + 1}/`)).toBe(403);
    expect(await get('http://public.test/')).toBe(403);
  });

  it('refuses a granted name that resolves to loopback (DNS rebinding)', async () => {
    expect(await get(`http://rebind.test:${port}/`)).toBe(403);
    expect(denied).toContain(`rebind.test:${port}`);
  });
});
