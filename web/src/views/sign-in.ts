/**
 * A remote server's sign-in on the Servers page (docs/upstream-auth.md): its state for everyone;
 * for admins, Sign in (the authorization page opens in a new tab and comes back to Carte's
 * /oauth/callback; this page polls until the server is signed in) and Sign out (with a confirm).
 */
import { api, type ServerInfo, type StartedSignIn } from '../api.js';
import { badge, h, timeAgo } from '../dom.js';
import { runAction, type ViewContext } from './common.js';

/** How long the page keeps looking for a sign-in it started, and how often. */
const WATCH_MS = 5 * 60_000;
const EVERY_MS = 1_500;

const LABELS: Record<string, [string, string]> = {
  signed_in: ['signed in', 'ok'],
  expired: ['sign-in expired', 'danger'],
  needs_sign_in: ['needs sign-in', 'warn'],
};

/** The sign-in line of a remote server that signs in (null for the others). */
export function signInLine(
  s: ServerInfo,
  admin: boolean,
  status: HTMLElement,
  ctx: ViewContext,
): HTMLElement | null {
  const auth = s.signIn;
  const label = auth && LABELS[auth.state];
  if (!auth || !label) return null;
  const details = [
    auth.scope ? `scopes: ${auth.scope}` : null,
    auth.expiresAt
      ? `token expires ${expiry(auth.expiresAt)}${auth.refreshable ? ', refreshed as needed' : ''}`
      : null,
  ].filter((x) => x !== null);
  const signedIn = auth.state === 'signed_in';
  return h(
    'p',
    { class: 'server-sign-in', 'data-server': s.id },
    'Sign-in: ',
    badge(label[0], label[1]),
    details.length ? ` ${details.join(' · ')}` : null,
    admin && !signedIn ? signInButton(s.id, status, ctx) : null,
    admin && auth.state !== 'needs_sign_in' ? signOutButton(s.id, status, ctx) : null,
    !admin && !signedIn ? ' An admin signs in for everyone.' : null,
  );
}

function expiry(iso: string): string {
  const ms = Date.parse(iso) - Date.now();
  return ms > 0 ? `in ${Math.max(1, Math.round(ms / 60_000))} min` : timeAgo(iso);
}

function signInButton(id: string, status: HTMLElement, ctx: ViewContext): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'sign-in', 'aria-label': `Sign in to ${id}` }, 'Sign in');
  b.addEventListener('click', () => {
    // Opened on the click itself, so no popup blocker stops it; it gets the URL once Carte answers.
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    void runAction(b, status, async () => {
      try {
        const r = await api<StartedSignIn>('POST', `/servers/${encodeURIComponent(id)}/sign-in`);
        if (r.state === 'signed_in') {
          tab?.close();
          ctx.rerender(`Signed in to ${id}.`);
          return `Signed in to ${id}.`;
        }
        const url = r.authorizationUrl ?? '';
        if (!/^https?:\/\//i.test(url)) throw new Error(`refused an authorization URL that is not http(s)`);
        if (!tab) return `Your browser blocked the new tab: open ${url} to sign in to ${id}.`;
        tab.location.href = url;
        void watch(id, ctx);
        return `Finish signing in to ${id} in the new tab; this page updates when it is done.`;
      } catch (err) {
        tab?.close();
        throw err;
      }
    });
  });
  return b;
}

function signOutButton(id: string, status: HTMLElement, ctx: ViewContext): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'sign-out', 'aria-label': `Sign out of ${id}` }, 'Sign out');
  b.addEventListener('click', () => {
    if (!confirm(`Sign out of ${id}? Every caller's calls to it stop working until an admin signs in again.`))
      return;
    void runAction(b, status, async () => {
      const r = await api<{ forgotten: boolean; revocation: string }>(
        'POST',
        `/servers/${encodeURIComponent(id)}/sign-out`,
      );
      const how = r.revocation === 'revoked' ? ' (tokens revoked)' : '';
      const message = r.forgotten ? `Signed out of ${id}${how}.` : `No sign-in to ${id} was stored.`;
      ctx.rerender(message);
      return message;
    });
  });
  return b;
}

/** Polls the servers until `id` is signed in (then redraws), the page leaves Servers, or time is up. */
async function watch(id: string, ctx: ViewContext): Promise<void> {
  const until = Date.now() + WATCH_MS;
  while (Date.now() < until && location.hash.startsWith('#/servers')) {
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    const { servers } = await api<{ servers: ServerInfo[] }>('GET', '/servers').catch(() => ({
      servers: [] as ServerInfo[],
    }));
    if (servers.find((s) => s.id === id)?.signIn?.state === 'signed_in') {
      if (location.hash.startsWith('#/servers')) ctx.rerender(`Signed in to ${id}.`);
      return;
    }
  }
}
