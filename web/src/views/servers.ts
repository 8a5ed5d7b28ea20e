/** The servers: state, tool count, last discovery and last error, sandbox, sign-in; admins can refresh one, and sign in or out of a remote one; callers link their own account to a per-user one. */
import { api, type RefreshResult, type ServerInfo } from '../api.js';
import { badge, h, route, timeAgo } from '../dom.js';
import { hasScope, runAction, statusLine, type ViewContext } from './common.js';
import { signInLine } from './sign-in.js';

const TONES: Record<string, string> = {
  ready: 'ok',
  usable: 'ok',
  cached: 'neutral',
  configured: 'neutral',
  stopped: 'neutral',
};

/** Renders `#/servers`. */
export async function serversView(ctx: ViewContext): Promise<Node[]> {
  const { servers } = await api<{ servers: ServerInfo[] }>('GET', '/servers');
  const admin = hasScope(ctx.me, 'admin');
  const status = statusLine();
  return [
    h('h1', { tabindex: -1 }, 'Servers'),
    status,
    servers.length
      ? h(
          'ul',
          { class: 'servers' },
          servers.map((s) =>
            serverItem(s, admin ? refreshButton(s.id, status, ctx) : null, signInLine(s, admin, status, ctx)),
          ),
        )
      : h('p', { class: 'muted' }, 'No servers configured.'),
  ];
}

function serverItem(s: ServerInfo, refresh: HTMLElement | null, signIn: HTMLElement | null): HTMLElement {
  // Non-admins see only whether a server is usable; admins see its live state.
  const state = s.state ?? (s.usable === false ? 'unavailable' : 'usable');
  const tone = TONES[state] ?? (state === 'failed' || state === 'unavailable' ? 'danger' : 'warn');
  return h(
    'li',
    { class: 'server' },
    h(
      'div',
      { class: 'server-head' },
      h('a', { href: route('server', s.id), class: 'server-name' }, s.id),
      badge(state, tone),
      refresh,
    ),
    s.description ? h('p', {}, s.description) : null,
    h(
      'p',
      { class: 'muted' },
      `${s.toolCount} tool${s.toolCount === 1 ? '' : 's'}`,
      s.lastDiscovery !== undefined
        ? [
            ' · discovered ',
            h('span', { title: s.lastDiscovery ?? '' }, timeAgo(s.lastDiscovery ?? undefined)),
          ]
        : null,
    ),
    sandboxLine(s),
    s.reason ? h('p', { class: 'server-error' }, s.reason) : null,
    signIn,
    state === 'needs_sign_in' && s.signIn?.state !== 'per_user'
      ? h('p', { class: 'muted' }, 'Or sign in from a terminal: ', h('code', {}, `carte auth login ${s.id}`))
      : null,
    s.lastError ? h('p', { class: 'server-error' }, 'Last error: ', s.lastError) : null,
  );
}

/** A stdio server's sandbox (admins only): its network grant and limits, or that it has none. */
function sandboxLine(s: ServerInfo): HTMLElement | null {
  if (s.sandbox === undefined) return null;
  if (s.sandbox === null)
    return h('p', { class: 'server-sandbox warn' }, 'Not sandboxed: runs with your full rights');
  const { network, memoryMb, maxProcesses } = s.sandbox;
  const limits = [
    memoryMb === undefined ? null : `memory ${memoryMb} MiB`,
    maxProcesses === undefined ? null : `${maxProcesses} processes`,
  ].filter((x) => x !== null);
  return h(
    'p',
    { class: 'server-sandbox muted' },
    [
      'Sandboxed',
      `network: ${network.length ? network.join(', ') : 'none'}`,
      limits.length ? limits.join(', ') : 'no limits',
    ].join(' · '),
  );
}

function refreshButton(id: string, status: HTMLElement, ctx: ViewContext): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'refresh', 'aria-label': `Refresh ${id}` }, 'Refresh');
  b.addEventListener('click', () => {
    void runAction(b, status, async () => {
      const r = await api<RefreshResult>('POST', `/servers/${encodeURIComponent(id)}/refresh`);
      const message =
        r.status === 'success'
          ? `Refreshed ${id}: ${r.toolCount} tools.`
          : `Refreshing ${id} failed: ${r.error ?? r.status}`;
      ctx.rerender(message);
      return message;
    });
  });
  return b;
}
