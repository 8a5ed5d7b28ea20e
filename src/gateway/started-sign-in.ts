// Sign-ins started and ended from the REST API (the web menu's Servers page, issue 41): an admin's
// for a shared server, each caller's own link for a per-user one (`oauth.identity: per-user`).
// Starting one answers the authorization URL at once; the browser comes back to the HTTP face's
// /oauth/callback, and the sign-in finishes in the background (code exchange, then a sync), as an
// elicited sign-in does. Signing out revokes where offered, forgets, then syncs a shared server so
// its state says what it now needs (unlinking touches the caller's own link only).
import { CarteError } from '../errors.js';
import { loginCommand, type Revocation } from '../upstream/index.js';
import { LOCAL_CALLER, type CallerContext } from './access/context.js';
import { requireScope } from './access/scopes.js';
import { isPerUser, linkAgain, noSubjectLinkRefusal } from './calls/per-user.js';
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
 * Who may sign in or out of server `id`: an admin for everyone on a shared server; on a per-user
 * one, any caller with the call scope and a subject, for their own link only. True when per-user.
 */
function mayChange(site: SignInSite, caller: CallerContext, id: string, doing: string): boolean {
  if (!isPerUser(site.gateway.server(id))) {
    requireScope(caller, 'admin', `${doing} server "${id}" for everyone`);
    return false;
  }
  requireScope(caller, 'call', `${doing} server "${id}" with your own account`);
  if (!caller.subject) throw noSubjectLinkRefusal(id);
  return true;
}

/**
 * Starts a sign-in to server `id`: for everyone (admin only), or on a per-user server the caller's
 * own link (the call scope and a subject). Resolves to the authorization URL as
 * soon as there is one; a failure before that (a stdio server, one that asks for no sign-in, an
 * unreachable one) rejects. What fails after it goes to `late` (and to the audit log).
 */
export async function startSignIn(
  site: SignInSite,
  caller: CallerContext,
  id: string,
  late: (err: unknown) => void,
  timeoutMs: number = ELICITED_SIGN_IN_TIMEOUT_MS,
): Promise<StartedSignIn> {
  const perUser = mayChange(site, caller, id, 'signing in to');
  const desk = site.gateway.callbackDesk;
  if (!desk)
    throw new CarteError(
      'bad_input',
      `this Carte has no /oauth/callback for a browser to come back to (only \`carte serve --http\` has one); ${perUser ? linkAgain(id) : `run \`${loginCommand(id)}\``}`,
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
    const again = `start it again (${perUser ? 'Link my account' : 'Sign in'} on the Servers page of the web menu)`;
    signInToServer(site, id, { openUrl, timeoutMs, callback: desk.callback(), again }, caller).then(
      () => {
        if (!shown) resolve({ server: id, state: 'signed_in' });
      },
      (err: unknown) => (shown ? late(err) : reject(err as Error)),
    );
  });
}

/**
 * Signs out of server `id` (admin only), then syncs it: a server that needs a sign-in says so
 * again. On a per-user server it unlinks the caller's own account only, and syncs nothing.
 */
export async function endSignIn(site: SignInSite, caller: CallerContext, id: string): Promise<EndedSignIn> {
  const perUser = mayChange(site, caller, id, 'signing out of');
  const { forgotten, revocation } = await signOutOfServer(site, id, caller);
  if (perUser) return { server: id, forgotten, revocation, status: undefined };
  const [sync] = await site.gateway.sync(LOCAL_CALLER, { server: id });
  return { server: id, forgotten, revocation, status: sync?.status };
}
