/** `#/tokens` (admin): the project's tokens; create one (its secret shown once, with a copy button) or revoke one. */
import { api, type TokenInfo } from '../api.js';
import { badge, h, timeAgo } from '../dom.js';
import { runAction, statusLine } from './common.js';

/** Renders `#/tokens`. */
export async function tokensView(): Promise<Node[]> {
  const { tokens } = await api<{ tokens: TokenInfo[] }>('GET', '/tokens');
  const status = statusLine();
  const secret = h('div', { class: 'secret', hidden: true });
  return [
    h('h1', { tabindex: -1 }, 'Tokens'),
    h(
      'p',
      { class: 'muted' },
      'Bearer tokens of this project, for clients of /mcp and the REST API. Their secrets are never shown again after creation.',
    ),
    // A session opened from the login link holds a token too, which this list does not show.
    h(
      'p',
      { class: 'muted' },
      "A login link's session is not listed: its token lives in this Carte's memory, for 12 hours at most or until it restarts.",
    ),
    h('h2', {}, 'Create a token'),
    createForm(status, secret),
    secret,
    status,
    h('h2', {}, 'Tokens'),
    tokens.length
      ? h(
          'ul',
          { class: 'tokens' },
          tokens.map((t) => tokenItem(t, status)),
        )
      : h(
          'p',
          { class: 'muted' },
          'No tokens yet: create one above, or with ',
          h('code', {}, 'carte token create --project P --scope call'),
          '.',
        ),
  ];
}

function createForm(status: HTMLElement, secret: HTMLElement): HTMLFormElement {
  const name = h('input', { name: 'name', maxlength: 64, placeholder: 'laptop claude', autocomplete: 'off' });
  const scope = h(
    'select',
    { name: 'scope' },
    ['search', 'call', 'admin'].map((s) =>
      h('option', { value: s, ...(s === 'call' ? { selected: true } : {}) }, s),
    ),
  );
  const days = h('input', {
    name: 'days',
    type: 'number',
    min: 1,
    max: 3650,
    placeholder: 'never',
    inputmode: 'numeric',
  });
  // An admin token made here must expire within 90 days (docs/security.md, "How long a token lives").
  scope.addEventListener('change', () => {
    const admin = scope.value === 'admin';
    days.placeholder = admin ? '1 to 90' : 'never';
    days.max = admin ? '90' : '3650';
    days.required = admin;
  });
  // Empty: the token gets its project's rate (or none) and follows it when the config changes.
  const rate = h('input', {
    name: 'rate',
    type: 'number',
    min: 1,
    max: 999_999_999,
    placeholder: "project's",
    inputmode: 'numeric',
  });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Create');
  const field = (text: string, control: HTMLElement) => h('label', {}, h('span', {}, text), control);
  return h(
    'form',
    {
      class: 'filters',
      'aria-label': 'Create a token',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void runAction(submit, status, async () => {
          const made = await api<TokenInfo & { token: string }>('POST', '/tokens', {
            scopes: [scope.value],
            ...(name.value.trim() ? { name: name.value.trim() } : {}),
            ...(days.value ? { expiresInDays: Number(days.value) } : {}),
            ...(rate.value ? { ratePerMinute: Number(rate.value) } : {}),
          });
          showSecret(secret, made);
          const list = document.querySelector('ul.tokens');
          const item = tokenItem(made, status);
          if (list) list.append(item);
          else
            document
              .querySelector('main p.muted:last-child')
              ?.replaceWith(h('ul', { class: 'tokens' }, item));
          name.value = '';
          rate.value = '';
          return `Created token ${made.id}.`;
        });
      },
    },
    field('Name', name),
    field('Scope', scope),
    field('Expires in days', days),
    field('Requests per minute', rate),
    submit,
  );
}

/** The new secret in a read-only box with a copy button; it is gone from the page once the view is left. */
function showSecret(box: HTMLElement, made: TokenInfo & { token: string }): void {
  const value = h('input', {
    class: 'secret-value',
    readonly: true,
    value: made.token,
    'aria-label': 'New token',
    spellcheck: false,
  });
  const copy = h('button', { type: 'button' }, 'Copy');
  copy.addEventListener('click', () => {
    value.select();
    void navigator.clipboard
      .writeText(made.token)
      .then(() => (copy.textContent = 'Copied'))
      .catch(() => (copy.textContent = 'Press Ctrl+C'));
  });
  box.replaceChildren(
    h(
      'p',
      {},
      h('strong', {}, `Token ${made.id}`),
      ': copy it now; Carte keeps only its hash and cannot show it again.',
    ),
    h('div', { class: 'inline-form' }, value, copy),
  );
  box.hidden = false;
}

function tokenItem(t: TokenInfo, status: HTMLElement): HTMLElement {
  const expired = t.expiresAt !== null && Date.parse(t.expiresAt) <= Date.now();
  const state = t.revokedAt
    ? badge('revoked', 'danger')
    : expired
      ? badge('expired', 'warn')
      : badge('active', 'ok');
  const revoke = h('button', { type: 'button', class: 'danger', 'aria-label': `Revoke ${t.id}` }, 'Revoke');
  revoke.addEventListener('click', () => {
    if (!confirm(`Revoke token ${t.name ?? t.id}? Clients using it stop working at once.`)) return;
    void runAction(revoke, status, async () => {
      await api('POST', `/tokens/${encodeURIComponent(t.id)}/revoke`);
      // In place: a new token's secret, still shown above, stays until the view is left.
      state.replaceWith(badge('revoked', 'danger'));
      revoke.remove();
      return `Revoked token ${t.id}.`;
    });
  });
  const when = (iso: string | null, none: string) => (iso ? h('span', { title: iso }, timeAgo(iso)) : none);
  return h(
    'li',
    { class: 'token', 'data-id': t.id },
    h('div', { class: 'server-head' }, h('strong', {}, t.name ?? t.id), state, t.revokedAt ? null : revoke),
    h(
      'p',
      { class: 'muted' },
      h('code', {}, t.id),
      ` · ${t.project} · ${t.scopes.join(' ')} · `,
      h('span', { class: 'rate' }, rateText(t)),
    ),
    h(
      'p',
      { class: 'muted' },
      'created ',
      when(t.createdAt, ''),
      ' · last used ',
      when(t.lastUsedAt, 'never'),
      ' · expires ',
      t.expiresAt ? h('span', { title: t.expiresAt }, t.expiresAt.slice(0, 10)) : 'never',
    ),
  );
}

/** `600/m` (its own), `60/m (project)` (its project's or http.rate), or `no rate limit`. */
function rateText(t: TokenInfo): string {
  if (t.ratePerMinute !== null) return `${t.ratePerMinute}/m`;
  return t.effectiveRatePerMinute === null ? 'no rate limit' : `${t.effectiveRatePerMinute}/m (project)`;
}
