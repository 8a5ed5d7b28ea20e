// Signing in from the middle of an agent's work (issue 41; MCP 2025-11-25 URL-mode elicitation,
// SEP-1036): a call meets a server that needs a sign-in, and the agent's client, which declared
// `elicitation.url`, is asked to open the authorization page. The browser comes back to the HTTP
// face's /oauth/callback (or, on stdio, a loopback listener); the client then hears
// `notifications/elicitation/complete` and the face retries the call.
import { randomUUID } from 'node:crypto';
import { CarteError } from '../errors.js';
import { loginCommand } from '../upstream/index.js';
import type { CallerContext } from './access/context.js';
import { requireScope, scopeAllows } from './access/scopes.js';
import { isPerUser, linkAgain, noSubjectRefusal } from './calls/per-user.js';
import { signInToServer, type SignInSite } from './upstream-sign-in.js';

/** How long a person has to finish a sign-in asked of their client. */
export const ELICITED_SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** The agent's client, as an elicited sign-in speaks to it (the MCP face implements it). */
export interface UrlAsker {
  /** Sends `elicitation/create` with `mode: "url"`; resolves to the client's action. */
  ask(params: { url: string; elicitationId: string; message: string }): Promise<string>;
  /** Sends `notifications/elicitation/complete` for the elicitation. */
  complete(elicitationId: string): Promise<void>;
}

/**
 * Signs in to server `id` through the caller's client: resolves once signed in (and synced), so
 * the call can be made again; rejects when the client declines or no answer comes in time.
 */
export async function signInThroughClient(
  site: SignInSite,
  caller: CallerContext,
  id: string,
  asker: UrlAsker,
  how: { scope?: string; timeoutMs?: number } = {},
): Promise<void> {
  // The shared identity is the deployment's: whoever signs in, every caller's calls use that
  // account. Only an admin (or the local user) may make it (docs/upstream-auth.md, "Teams"). A
  // per-user server's sign-in is the caller's own: anyone with the call scope links theirs.
  const perUser = isPerUser(site.gateway.server(id));
  if (perUser && !caller.subject) throw noSubjectRefusal(id);
  if (perUser) requireScope(caller, 'call', `signing in to server "${id}"`);
  else if (!scopeAllows(caller.scopes, 'admin'))
    throw new CarteError(
      'needs_sign_in',
      `server "${id}" needs a sign-in, which only an admin may make for everyone; ask one to run \`${loginCommand(id)}\``,
      { details: { server: id, signIn: loginCommand(id) } },
    );
  const elicitationId = randomUUID();
  const desk = site.gateway.callbackDesk;
  await signInToServer(
    site,
    id,
    {
      timeoutMs: how.timeoutMs ?? ELICITED_SIGN_IN_TIMEOUT_MS,
      ...(how.scope ? { scope: how.scope } : {}),
      ...(desk ? { callback: desk.callback() } : {}),
      // `carte auth login` refuses a per-user server: its timeout names the ways a person links.
      ...(perUser ? { again: linkAgain(id) } : {}),
      openUrl: async (url) => {
        const message = perUser
          ? `Server "${id}" needs you to sign in with your own account: open this page to let Carte use it for your calls.`
          : `Server "${id}" needs you to sign in: open this page to let Carte use it for you.`;
        const action = await asker.ask({ url, elicitationId, message });
        if (action !== 'accept')
          throw new CarteError(
            'needs_sign_in',
            perUser
              ? `the sign-in to server "${id}" was declined in the client; call it again to be asked again`
              : `the sign-in to server "${id}" was declined in the client; run \`${loginCommand(id)}\` to sign in`,
            { details: perUser ? { identity: 'per-user' } : { server: id, signIn: loginCommand(id) } },
          );
      },
    },
    caller,
  );
  await asker.complete(elicitationId).catch(() => undefined); // the client may have gone
}
