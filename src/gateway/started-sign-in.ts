// Sign-ins an admin starts and ends from the REST API (the web menu's Servers page, issue 41):
// starting one answers the authorization URL at once; the browser comes back to the HTTP face's
// /oauth/callback, and the sign-in finishes in the background (code exchange, then a sync), as an
// elicited sign-in does. Signing out revokes where offered, forgets, then syncs the server so its
// state says what it now needs.
import { CarteError } from '../errors.js';
import { loginCommand, type Revocation } from '../upstream/index.js';
import { LOCAL_CALLER, type CallerContext } from './access/context.js';
import { requireScope } from './access/scopes.js';
import { ELICITED_SIGN_IN_TIMEOUT_MS } from './elicited-sign-in.js';
import { signInToServer, signOutOfServer, type SignInSite } from './upstream-sign-in.js';

/** What starting a sign-in answers: the page to open, or (no person needed) that it is done. */
export type StartedSignIn =
  { server: string; state: 'waiting'; authorizationUrl: string } | { server: string; state: 'signed_in' };

/** What a sign-out did, and the server's discovery status after it. */
export interface EndedSignIn {
  server: string;
  forgotten: boolean;
  revocation: Revocation;
  status: string | undefined;
}

/**
 * Starts a sign-in to server `id` for everyone (admin only): resolves to the authorization URL as
 * soon as there is one; a failure before that (a stdio server, one that asks for no sign-in, an
 * unreachable one) rejects. What fails after it goes to `late` (and to the audit log).
 */
export function startSignIn(
  site: SignInSite,
  caller: CallerContext,
  id: string,
  late: (err: unknown) => void,
  timeoutMs: number = ELICITED_SIGN_IN_TIMEOUT_MS,
): Promise<StartedSignIn> {
  requireScope(caller, 'admin', `signing in to server "${id}" for everyone`);
  const desk = site.gateway.callbackDesk;
  if (!desk)
    return Promise.reject(
      new CarteError(
        'bad_input',
        `this Carte has no /oauth/callback for a browser to come back to (only \`carte serve --http\` has one); run \`${loginCommand(id)}\``,
      ),
    );
  return new Promise<StartedSignIn>((resolve, reject) => {
    let shown = false;
    const openUrl = (url: string): Promise<void> => {
      // The URL is the authorization server's: a browser is only ever sent to an http(s) page.
      if (!/^https?:$/.test(new URL(url).protocol))
        return Promise.reject(
          new CarteError(
            'upstream_error',
            `server "${id}"'s authorization page is not an http(s) URL; refused`,
          ),
        );
      shown = true;
      resolve({ server: id, state: 'waiting', authorizationUrl: url });
      return Promise.resolve();
    };
    signInToServer(site, id, { openUrl, timeoutMs, callback: desk.callback() }, caller).then(
      () => {
        if (!shown) resolve({ server: id, state: 'signed_in' });
      },
      (err: unknown) => (shown ? late(err) : reject(err as Error)),
    );
  });
}

/** Signs out of server `id` (admin only), then syncs it: a server that needs a sign-in says so again. */
export async function endSignIn(site: SignInSite, caller: CallerContext, id: string): Promise<EndedSignIn> {
  requireScope(caller, 'admin', `signing out of server "${id}" for everyone`);
  const { forgotten, revocation } = await signOutOfServer(site, id, caller);
  const [sync] = await site.gateway.sync(LOCAL_CALLER, { server: id });
  return { server: id, forgotten, revocation, status: sync?.status };
}
