/** The web menu: header, sign-in, and the hash router that draws one view at a time into <main>. */
import { api, ApiError, type Me } from './api.js';
import { getToken, loginCode, setToken } from './auth.js';
import { h } from './dom.js';
import { parseRoute, type Route } from './router.js';
import { activityView } from './views/activity.js';
import { approvalsView } from './views/approvals.js';
import { errorPanel, hasScope, tokenForm, type ViewContext } from './views/common.js';
import { homeView } from './views/home.js';
import { categoryView, searchView, serverView } from './views/lists.js';
import { serversView } from './views/servers.js';
import { tokensView } from './views/tokens.js';
import { toolView } from './views/tool.js';

const main = document.getElementById('main')!;
const session = document.getElementById('session')!;
const searchForm = document.getElementById('search') as HTMLFormElement;
const searchInput = searchForm.querySelector('input')!;
let generation = 0; // a view drawn for an older route is thrown away

const ctx: ViewContext = {
  me: null,
  rerender: (flash) => void render(flash),
  signedIn: () => void loadMe().then(() => render()),
};

function viewFor(r: Route): Promise<Node[]> {
  switch (r.view) {
    case 'home':
      return homeView();
    case 'category':
      return categoryView(r.id);
    case 'server':
      return serverView(r.id);
    case 'tool':
      return toolView(r.key, ctx);
    case 'search':
      return searchView(r.q);
    case 'servers':
      return serversView(ctx);
    case 'approvals':
      return approvalsView(ctx);
    case 'activity':
      return activityView(r.filters, ctx);
    case 'tokens':
      return tokensView();
    case 'missing':
      return Promise.resolve([h('h1', { tabindex: -1 }, 'Not found'), h('p', {}, `Nothing at ${r.hash}.`)]);
  }
}

async function render(flash?: string): Promise<void> {
  const mine = ++generation;
  const r = parseRoute(location.hash);
  if (document.activeElement !== searchInput) searchInput.value = r.view === 'search' ? r.q : '';
  for (const a of document.querySelectorAll<HTMLAnchorElement>('nav a')) {
    const here = a.dataset.view === r.view || (a.dataset.view === 'home' && r.view === 'category');
    if (here) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  main.setAttribute('aria-busy', 'true');
  let nodes: Node[];
  try {
    nodes = await viewFor(r);
  } catch (err) {
    nodes = [errorPanel(err, ctx)];
  }
  if (mine !== generation) return;
  main.replaceChildren(...(flash ? [h('p', { class: 'flash', role: 'status' }, flash)] : []), ...nodes);
  main.removeAttribute('aria-busy');
  const heading = main.querySelector<HTMLElement>('h1');
  document.title = heading?.textContent ? `${heading.textContent} · Carte` : 'Carte';
  // Keyboard and screen-reader users land on the new view, not at the old link.
  if (!flash && document.activeElement !== searchInput) heading?.focus({ preventScroll: true });
}

async function loadMe(): Promise<void> {
  try {
    ctx.me = await api<Me>('GET', '/me');
  } catch (err) {
    ctx.me = null;
    if (!(err instanceof ApiError && err.status === 401)) console.warn(err);
  }
  drawSession();
}

function drawSession(): void {
  const me = ctx.me;
  const signOut = h('button', { type: 'button', class: 'link' }, getToken() ? 'Sign out' : 'Sign in');
  signOut.addEventListener('click', () => {
    if (getToken()) {
      setToken(null);
      ctx.signedIn();
    } else showSignIn();
  });
  const who = me
    ? [
        h(
          'span',
          { class: 'who', title: `scopes: ${me.scopes.join(', ')}` },
          `${me.project} · ${me.scopes.join(' ')}`,
        ),
      ]
    : [];
  session.replaceChildren(...who, signOut);
  // Approvals and tokens are an admin's business; their links show only to those the API would answer.
  for (const a of document.querySelectorAll<HTMLElement>('nav a[data-admin]'))
    a.hidden = !hasScope(me, 'admin');
}

function showSignIn(): void {
  const dialog = h(
    'dialog',
    { class: 'signin', 'aria-label': 'Sign in' },
    h('h2', {}, 'Sign in'),
    h('p', {}, 'Paste a token (', h('code', {}, 'carte token create --scope admin'), '):'),
    tokenForm({ ...ctx, signedIn: () => (dialog.close(), ctx.signedIn()) }),
    h('form', { method: 'dialog' }, h('button', { class: 'link' }, 'Cancel')),
  );
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

/** Trades the one-time code in `#login=` for a token, then drops the code from the address bar and history. */
async function login(code: string): Promise<string | undefined> {
  history.replaceState(null, '', `${location.pathname}${location.search}#/`);
  try {
    const r = await api<{ token: string }>('POST', '/login', { code });
    setToken(r.token);
    return undefined;
  } catch (err) {
    return `Login link refused: ${(err as Error).message}`;
  }
}

searchForm.addEventListener('submit', (e) => {
  e.preventDefault();
  location.hash = `#/search?${new URLSearchParams({ q: searchInput.value.trim() }).toString()}`;
});
document.addEventListener('keydown', (e) => {
  const typing =
    e.target instanceof HTMLInputElement ||
    e.target instanceof HTMLTextAreaElement ||
    e.target instanceof HTMLSelectElement;
  if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault();
    searchInput.focus();
  }
});
// A login link opened in a tab that already shows the menu changes only the hash: no new page.
window.addEventListener('hashchange', () => void (loginCode(location.hash) ? start() : render()));

async function start(): Promise<void> {
  const code = loginCode(location.hash);
  const flash = code ? await login(code) : undefined;
  await loadMe();
  await render(flash);
}
void start();
