/**
 * A remote server's sign-in on the Servers page (docs/upstream-auth.md): its state for everyone;
 * for admins, Sign in (the authorization page opens in a new tab and comes back to Carte's
 * /oauth/callback; this page polls until the server is signed in) and Sign out (with a confirm).
 * A per-user server shows instead the caller's own link, with Link my account (the same flow) and
 * Unlink for anyone who may call, their own account only.
 */
import { api, type OwnLink, type ServerInfo, type StartedSignIn } from '../api.js';
import { badge, h, timeAgo } from '../dom.js';
import { hasScope, runAction, type ViewContext } from './common.js';

/** How long the page keeps looking for a sign-in it started, and how often. */
const WATCH_MS = 5 * 60_000;
const EVERY_MS = 1_500;

const LABELS: Record<string, [string, string]> = {
  signed_in: ['signed in', 'ok'],
  expired: ['sign-in expired', 'danger'],
  needs_sign_in: ['needs sign-in', 'warn'],
};

const OWN_LABELS: Record<OwnLink['state'], [string, string]> = {
  linked: ['linked', 'ok'],
  expired: ['link expired', 'danger'],
  not_linked: ['not linked', 'warn'],
  no_subject: ['none', 'neutral'],
};

/** The sign-in line of a remote server that signs in (null for the others). */
export function signInLine(
  s: ServerInfo,
  admin: boolean,
  status: HTMLElement,
  ctx: ViewContext,
): HTMLElement | null {
  const auth = s.signIn;
  if (auth?.state === 'per_user') return ownLinkLine(s, status, ctx);
  const label = auth && LABELS[auth.state];
  if (!auth || !label) return null;
  const signedIn = auth.state === 'signed_in';
  return h(
    'p',
    { class: 'server-sign-in', 'data-server': s.id },
    'Sign-in: ',
    badge(label[0], label[1]),
    detailsOf(auth),
    admin && !signedIn ? signInButton(s.id, status, ctx, false) : null,
    admin && auth.state !== 'needs_sign_in' ? signOutButton(s.id, status, ctx, false) : null,
    !admin && !signedIn ? ' An admin signs in for everyone.' : null,
  );
}

/** A per-user server: the caller's own link; admins also see how many linked. */
function ownLinkLine(s: ServerInfo, status: HTMLElement, ctx: ViewContext): HTMLElement {
  const you = s.signIn?.you ?? { state: 'no_subject', scope: null, expiresAt: null, refreshable: false };
  const [text, tone] = OWN_LABELS[you.state];
  const may = hasScope(ctx.me, 'call') && you.state !== 'no_subject';
  const count = s.signIn?.linked;
  return h(
    'p',
    { class: 'server-sign-in', 'data-server': s.id },
    'Your account: ',
    badge(text, tone),
    detailsOf(you),
    may && you.state !== 'linked' ? signInButton(s.id, status, ctx, true) : null,
    may && you.state !== 'not_linked' ? signOutButton(s.id, status, ctx, true) : null,
    you.state === 'no_subject'
      ? " Each person links their own account: sign in here with your identity provider's token to link yours."
      : null,
    count === undefined ? null : ` · ${count} ${count === 1 ? 'person' : 'people'} linked`,
  );
}

function detailsOf(auth: { scope?: string | null; expiresAt?: string | null; refreshable?: boolean }) {
  const details = [
    auth.scope ? `scopes: ${auth.scope}` : null,
    auth.expiresAt
      ? `token expires ${expiry(auth.expiresAt)}${auth.refreshable ? ', refreshed as needed' : ''}`
      : null,
  ].filter((x) => x !== null);
  return details.length ? ` ${details.join(' · ')}` : null;
}

function expiry(iso: string): string {
  const ms = Date.parse(iso) - Date.now();
  return ms > 0 ? `in ${Math.max(1, Math.round(ms / 60_000))} min` : timeAgo(iso);
}

function signInButton(id: string, status: HTMLElement, ctx: ViewContext, own: boolean): HTMLButtonElement {
  const [cls, label, aria] = own
    ? ['link-account', 'Link my account', `Link my account to ${id}`]
    : ['sign-in', 'Sign in', `Sign in to ${id}`];
  const done = own ? `Linked your account to ${id}.` : `Signed in to ${id}.`;
  const b = h('button', { type: 'button', class: cls, 'aria-label': aria }, label);
  b.addEventListener('click', () => {
    // Opened on the click itself, so no popup blocker stops it; it gets the URL once Carte answers.
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    void runAction(b, status, async () => {
      try {
        const r = await api<StartedSignIn>('POST', `/servers/${encodeURIComponent(id)}/sign-in`);
        if (r.state === 'signed_in') {
          tab?.close();
          ctx.rerender(done);
          return done;
        }
        const url = r.authorizationUrl ?? '';
        if (!/^https?:\/\//i.test(url)) throw new Error(`refused an authorization URL that is not http(s)`);
        if (!tab) return `Your browser blocked the new tab: open ${url} to sign in to ${id}.`;
        tab.location.href = url;
        void watch(id, ctx, own, done);
        return `Finish ${own ? 'linking your account' : 'signing in'} to ${id} in the new tab; this page updates when it is done.`;
      } catch (err) {
        tab?.close();
        throw err;
      }
    });
  });
  return b;
}

function signOutButton(id: string, status: HTMLElement, ctx: ViewContext, own: boolean): HTMLButtonElement {
  const [cls, label, aria, question] = own
    ? [
        'unlink-account',
        'Unlink',
        `Unlink my account from ${id}`,
        `Unlink your account from ${id}? Your calls to it stop working until you link it again.`,
      ]
    : [
        'sign-out',
        'Sign out',
        `Sign out of ${id}`,
        `Sign out of ${id}? Every caller's calls to it stop working until an admin signs in again.`,
      ];
  const b = h('button', { type: 'button', class: cls, 'aria-label': aria }, label);
  b.addEventListener('click', () => {
    if (!confirm(question)) return;
    void runAction(b, status, async () => {
      const r = await api<{ forgotten: boolean; revocation: string }>(
        'POST',
        `/servers/${encodeURIComponent(id)}/sign-out`,
      );
      const how = r.revocation === 'revoked' ? ' (tokens revoked)' : '';
      const message = !r.forgotten
        ? `No sign-in to ${id} was stored.`
        : own
          ? `Unlinked your account from ${id}${how}.`
          : `Signed out of ${id}${how}.`;
      ctx.rerender(message);
      return message;
    });
  });
  return b;
}

/** Polls the servers until `id` is signed in or linked (then redraws), the page leaves Servers, or time is up. */
async function watch(id: string, ctx: ViewContext, own: boolean, done: string): Promise<void> {
  const until = Date.now() + WATCH_MS;
  while (Date.now() < until && location.hash.startsWith('#/servers')) {
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    const { servers } = await api<{ servers: ServerInfo[] }>('GET', '/servers').catch(() => ({
      servers: [] as ServerInfo[],
    }));
    const auth = servers.find((s) => s.id === id)?.signIn;
    if (own ? auth?.you?.state === 'linked' : auth?.state === 'signed_in') {
      if (location.hash.startsWith('#/servers')) ctx.rerender(done);
      return;
    }
  }
}
