// GET /oauth/callback: where a sign-in to a remote server comes back (an agent's client asked by URL
// elicitation, or an admin's Sign in on the web menu's Servers page). No bearer: the `state`
// parameter binds the answer to the waiting sign-in. The browser gets a short page once the code
// is exchanged: done, this tab may be closed; or why it failed.
import { Hono, type Context } from 'hono';
import type { SignInOutcome } from '../gateway/index.js';
import type { HttpDeps, HttpEnv } from './shared/types.js';

/** How long the page waits for the code exchange before saying Carte is still finishing it. */
const EXCHANGE_WAIT_MS = 30_000;

// The page is static text: no script, no style, no fetch; nothing upstream can become markup.
const HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
} as const;

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
      `Signed in to ${quoted}. Carte uses this sign-in from now on.`,
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
  return c.html(body, status, HEADERS);
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
