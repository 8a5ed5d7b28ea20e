/**
 * The web menu's static files (built into dist/web by `npm run build`). Only the files found
 * at start are routes, so no request path ever reaches the file system: traversal has nothing
 * to traverse. Each answer carries a strict CSP; the page talks only to its own origin.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import type { HttpDeps, HttpEnv } from './shared/types.js';

/** dist/web from both dist/http/web.js and src/http/web.ts (tests run the sources). */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/web', import.meta.url));

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  // The minified scripts' and style sheets' source maps: only DevTools fetches them.
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

// `img-src data:` lets a tool's returned image show; scripts, styles and fetches stay same-origin.
export const CSP =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  // Names are not content-hashed, so the browser revalidates each time (cheap: ETag, 304).
  'Cache-Control': 'no-cache',
} as const;

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
}

/** Every servable file under `root` keyed by URL path (`/main.js`), read once. */
export function listAssets(root: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(root)) return assets;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const type = TYPES[extname(entry.name)];
    if (!entry.isFile() || !type) continue;
    const file = join(entry.parentPath, entry.name);
    const urlPath = `/${relative(root, file).split(sep).join('/')}`;
    // Plain names only: nothing Hono's router would read as a pattern (`:x`, `*`, `{}`).
    if (!/^(\/[\w.-]+)+$/.test(urlPath)) continue;
    const body = new Uint8Array(readFileSync(file));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    assets.set(urlPath, { body, type, etag });
  }
  return assets;
}

function send(c: Context<HttpEnv>, asset: Asset): Response {
  const headers = { ...HEADERS, 'Content-Type': asset.type, ETag: asset.etag };
  if (c.req.header('if-none-match') === asset.etag) return c.body(null, 304, headers);
  return c.body(asset.body, 200, headers);
}

/** Serves the page at / and its assets (GET and HEAD), from `deps.webRoot` or dist/web. */
export function webRoutes(deps: HttpDeps): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  const assets = listAssets(deps.webRoot ?? DEFAULT_WEB_ROOT);
  const index = assets.get('/index.html');
  app.get('/', (c) =>
    index
      ? send(c, index)
      : c.text('The web menu is not built: run `npm run build` in the Carte checkout.', 503, HEADERS),
  );
  for (const [path, asset] of assets) app.get(path, (c) => send(c, asset));
  return app;
}
