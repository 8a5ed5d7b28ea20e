/**
 * The web menu's static files (built into dist/web by `npm run build`). Only the files found
 * at start are routes, so no request path ever reaches the file system: traversal has nothing
 * to traverse. Each answer carries a strict CSP; the page talks only to its own origin.
 * Also the page a sign-in to a remote server comes back to (`/oauth/callback`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import type { SignInOutcome } from '../gateway/index.js';
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

/** How long the page waits for the code exchange before saying Carte is still finishing it. */
const EXCHANGE_WAIT_MS = 30_000;

// The callback page is static text: no script, no style, no fetch; nothing upstream can become markup.
const CALLBACK_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
} as const;

/**
 * GET /oauth/callback: where a sign-in to a remote server comes back (an agent's client asked by URL
 * elicitation, or an admin's Sign in on the Servers page). No bearer: the `state` parameter binds
 * the answer to the waiting sign-in. The browser gets a short page once the code is exchanged:
 * done, this tab may be closed; or why it failed.
 */
export function oauthCallbackRoutes(deps: HttpDeps): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  app.get('/oauth/callback', async (c) => {
    const delivered = deps.gateway.callbackDesk?.deliver(new URL(c.req.url).searchParams);
    if (!delivered)
      return page(c, 400, 'No sign-in is waiting', [
        'No sign-in is waiting for this answer (it expired, or was already used).',
        'Start the sign-in again from Carte.',
      ]);
    const quoted = JSON.stringify(delivered.server);
    const outcome = await within(delivered.outcome, EXCHANGE_WAIT_MS);
    if (outcome === undefined)
      return page(c, 202, 'Finishing the sign-in', [
        `Carte is still finishing the sign-in to ${quoted}.`,
        'You may close this tab; Carte shows the sign-in once it is done.',
      ]);
    if (!outcome.ok)
      return page(c, 400, 'Sign-in failed', [
        `The sign-in to ${quoted} did not succeed: ${outcome.message}`,
        'You may close this tab and try again from Carte.',
      ]);
    return page(c, 200, 'Signed in', [
      `Signed in to ${quoted}: Carte makes its calls there with this account (yours alone on a server where each person links their own).`,
      'You may close this tab and go back to Carte or your agent.',
    ]);
  });
  return app;
}

function page(c: Context<HttpEnv>, status: 200 | 202 | 400, title: string, lines: string[]): Response {
  const body = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escape(title)} · Carte</title></head>`,
    `<body><main><h1>${escape(title)}</h1>`,
    ...lines.map((l) => `<p>${escape(l)}</p>`),
    '</main></body></html>',
    '',
  ].join('\n');
  return c.html(body, status, CALLBACK_HEADERS);
}

function escape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}

/** The outcome, or undefined when it takes longer than `ms`. */
async function within(outcome: Promise<SignInOutcome>, ms: number): Promise<SignInOutcome | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([outcome, late]);
  } finally {
    clearTimeout(timer);
  }
}
