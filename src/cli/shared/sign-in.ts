// Signing in from the terminal: `carte auth login`, and `carte call` meeting a server that needs a
// sign-in (or asks for more scopes) where a person can open the page (issue 41, item 4).
import { CarteError } from '../../errors.js';
import { signInToServer, urlOpener, type SignedIn } from '../../gateway/index.js';
import type { App } from './app.js';
import { note } from './output.js';

/** How long a sign-in waits for the browser to come back (a person reads and clicks). */
export const LOGIN_TIMEOUT_MS = 5 * 60_000;
/** Sign-ins one `carte call` may start before it gives up (a server that never accepts its scopes). */
export const MAX_SIGN_INS = 3;

/** Shows the authorization URL: in a browser (`$BROWSER`, else the system's opener), else on stderr. */
export function openSignInPage(id: string, browser: boolean): (url: string) => Promise<void> {
  const open = urlOpener(process.env.BROWSER, process.platform);
  return async (url) => {
    if (browser) {
      try {
        await open(url);
        note(`opened the sign-in page for "${id}" in a browser; waiting for it to come back…`);
        return;
      } catch (err) {
        note(`${(err as Error).message}; open this URL yourself:`);
      }
    } else note(`open this URL to sign in to "${id}":`);
    note(url);
  };
}

/** Whether a person can take a sign-in here: `$BROWSER` is set, or a terminal is attached. */
export function canSignInHere(): boolean {
  return !!process.env.BROWSER || (process.stdin.isTTY === true && process.stderr.isTTY === true);
}

/** The server a `needs_sign_in` failure names, and the scope it asked for, when it is one. */
export function signInAsked(err: unknown): { server: string; scope?: string } | undefined {
  if (!(err instanceof CarteError) || err.code !== 'needs_sign_in') return undefined;
  const { server, scope } = err.details ?? {};
  if (typeof server !== 'string') return undefined;
  return { server, ...(typeof scope === 'string' ? { scope } : {}) };
}

/** Signs in to `id` (a step-up when `scope` is given) and says so on stderr. */
export async function signInFromTerminal(app: App, id: string, scope?: string): Promise<SignedIn> {
  const openUrl = openSignInPage(id, true);
  const { signedIn } = await signInToServer(app, id, {
    openUrl,
    timeoutMs: LOGIN_TIMEOUT_MS,
    ...(scope ? { scope } : {}),
  });
  note(`signed in to "${id}"${signedIn.scope ? ` (scopes: ${signedIn.scope})` : ''}`);
  return signedIn;
}
