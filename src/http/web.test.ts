import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CSP, webRoutes } from './web.js';
import type { HttpDeps } from './shared/types.js';

const root = mkdtempSync(join(tmpdir(), 'carte-web-'));
const web = join(root, 'web');
mkdirSync(join(web, 'views'), { recursive: true });
writeFileSync(join(web, 'index.html'), '<!doctype html><title>Carte</title>');
writeFileSync(join(web, 'main.js'), 'export {};');
writeFileSync(join(web, 'style.css'), 'body{}');
writeFileSync(join(web, 'main.js.map'), '{"version":3}');
writeFileSync(join(web, 'views', 'home.js'), 'export const home = 1;');
writeFileSync(join(web, 'notes.ts'), 'secret source'); // not a servable type
writeFileSync(join(web, '.env'), 'TOKEN=x');
writeFileSync(join(root, 'secret.txt'), 'outside the web root');
afterAll(() => rmSync(root, { recursive: true, force: true }));

// The routes never touch the gateway or the store: static files only.
const deps = { webRoot: web } as unknown as HttpDeps;
const app = webRoutes(deps);

describe('webRoutes', () => {
  it('serves index.html at / with the security headers', async () => {
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>Carte</title>');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CSP);
    expect(CSP).toMatch(/^default-src 'self';/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it.each([
    ['/main.js', 'text/javascript; charset=utf-8', 'export {};'],
    ['/style.css', 'text/css; charset=utf-8', 'body{}'],
    ['/main.js.map', 'application/json; charset=utf-8', '{"version":3}'],
    ['/views/home.js', 'text/javascript; charset=utf-8', 'export const home = 1;'],
    ['/index.html', 'text/html; charset=utf-8', '<!doctype html><title>Carte</title>'],
  ])('serves %s as %s', async (path, type, body) => {
    const res = await app.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(await res.text()).toBe(body);
  });

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const first = await app.request('/main.js');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    const again = await app.request('/main.js', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const head = await app.request('/main.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it.each([
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/views/..%2f..%2fsecret.txt',
    '/views/%2e%2e/%2e%2e/secret.txt',
    '/notes.ts',
    '/.env',
    '/views',
    '/views/',
    '/nope.js',
  ])('does not serve %s', async (path) => {
    const res = await app.request(path);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toMatch(/outside the web root|secret source|TOKEN/);
  });

  it('serves only the files listed at start', async () => {
    writeFileSync(join(web, 'late.js'), 'export {};');
    expect((await app.request('/late.js')).status).toBe(404);
    expect((await webRoutes(deps).request('/late.js')).status).toBe(200);
  });

  it('answers only GET and HEAD', async () => {
    expect((await app.request('/', { method: 'POST' })).status).toBe(404);
  });

  it('says how to build the page when dist/web is missing', async () => {
    const bare = webRoutes({ webRoot: join(root, 'absent') } as unknown as HttpDeps);
    const res = await bare.request('/');
    expect(res.status).toBe(503);
    expect(await res.text()).toBe('The web menu is not built: run `npm run build` in the Carte checkout.');
    expect((await bare.request('/main.js')).status).toBe(404);
  });
});
