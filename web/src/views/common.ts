/** Pieces several views share: the tool list, error panels, the sign-in form, scope checks. */
import { api, ApiError, type Me, type ToolSummary } from '../api.js';
import { getToken, setToken } from '../auth.js';
import { badge, h, route } from '../dom.js';

/** What a view gets: who is signed in, and a way to draw the current route again. */
export interface ViewContext {
  me: Me | null;
  rerender(flash?: string): void;
  /** Called after the token changed: reloads `me` and the view. */
  signedIn(): void;
}

/** Whether the caller's scopes include `scope` (admin includes call; `*` includes all). */
export function hasScope(me: Me | null, scope: 'search' | 'call' | 'admin'): boolean {
  const s = me?.scopes ?? [];
  if (s.includes('*') || s.includes(scope)) return true;
  return scope !== 'admin' && s.includes('admin');
}

/** A list of tools, each a link to its page (`ol` when the order is a ranking). */
export function toolList(tools: ToolSummary[], ranked = false): HTMLElement {
  if (tools.length === 0) return h('p', { class: 'muted' }, 'No tools.');
  const items = tools.map((t) => {
    const [server = '', name = t.key] = splitKey(t.key);
    return h(
      'li',
      {},
      h(
        'a',
        { href: route('tool', server, name), class: 'tool-link' },
        h('span', { class: 'tool-name' }, t.title ?? name),
        ' ',
        h('code', { class: 'tool-key' }, t.key),
        t.pinned ? badge('pinned', 'accent') : null,
        t.summary ? h('span', { class: 'tool-summary' }, t.summary) : null,
      ),
    );
  });
  return h(ranked ? 'ol' : 'ul', { class: 'tools' }, items);
}

/** `server/tool` as [server, tool]; the tool part keeps any further slashes. */
export function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return i < 0 ? ['', key] : [key.slice(0, i), key.slice(i + 1)];
}

/** A panel explaining a failed request; a 401 offers the sign-in form in place. */
export function errorPanel(err: unknown, ctx: ViewContext): HTMLElement {
  if (err instanceof ApiError && err.status === 401) {
    return h(
      'section',
      { class: 'panel' },
      h('h2', {}, 'Sign in'),
      h(
        'p',
        {},
        'Open the login link that ',
        h('code', {}, 'carte serve --http'),
        ' printed, or paste a token.',
      ),
      // A stored token the API refuses (revoked, expired): say why rather than ask again in silence.
      getToken() ? h('p', { class: 'error', role: 'alert' }, `Token refused: ${err.message}`) : null,
      tokenForm(ctx),
    );
  }
  const text = err instanceof Error ? err.message : String(err);
  const failed = h('div', { class: 'error', role: 'alert' }, h('strong', {}, 'Failed: '), text);
  if (!(err instanceof ApiError && err.status === 403)) return failed;
  return h(
    'div',
    {},
    failed,
    h('section', { class: 'panel' }, h('p', {}, 'Paste a token that has the scope:'), tokenForm(ctx)),
  );
}

/** The paste-a-token form (a password field, so the token is not shown on screen); a refused token is not kept. */
export function tokenForm(ctx: ViewContext): HTMLFormElement {
  const input = h('input', {
    type: 'password',
    name: 'token',
    autocomplete: 'off',
    required: true,
    placeholder: 'carte_…',
    'aria-label': 'Token',
  });
  const refused = h('p', { class: 'error', role: 'alert', hidden: true });
  return h(
    'form',
    {
      class: 'inline-form',
      onsubmit: (e: Event) => {
        e.preventDefault();
        const previous = getToken();
        setToken(input.value.trim());
        api<Me>('GET', '/me').then(
          () => ctx.signedIn(),
          (err: unknown) => {
            setToken(previous);
            refused.textContent = `Token refused: ${err instanceof Error ? err.message : String(err)}`;
            refused.hidden = false;
          },
        );
      },
    },
    input,
    h('button', { type: 'submit' }, 'Use token'),
    refused,
  );
}

/** A status line for the result of an action (announced to screen readers). */
export function statusLine(): HTMLElement {
  return h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
}

/** Runs a button's action, disabling it meanwhile and reporting failure in `status`. */
export async function runAction(
  button: HTMLButtonElement,
  status: HTMLElement,
  action: () => Promise<string>,
): Promise<void> {
  button.disabled = true;
  status.className = 'status';
  status.textContent = 'Working…';
  try {
    status.textContent = await action();
  } catch (err) {
    status.className = 'status status-error';
    status.textContent = err instanceof Error ? err.message : String(err);
  } finally {
    button.disabled = false;
  }
}
