/** Lists of tools: one category's, one server's (both paged by cursor), and search results. */
import { api, query, type Category, type ToolSummary } from '../api.js';
import { h, route } from '../dom.js';
import { statusLine, toolList } from './common.js';

interface Page {
  tools: ToolSummary[];
  nextCursor?: string;
}

/** Renders `#/category/<id>`. */
export async function categoryView(id: string): Promise<Node[]> {
  const [{ categories }, first] = await Promise.all([
    api<{ categories: Category[] }>('GET', '/categories'),
    api<Page>('GET', `/tools${query({ category: id })}`),
  ]);
  const label = categories.find((c) => c.id === id)?.label ?? id;
  return [h('h1', { tabindex: -1 }, label), pagedList(first, (cursor) => ({ category: id, cursor }))];
}

/** Renders `#/server/<id>`. */
export async function serverView(id: string): Promise<Node[]> {
  const first = await api<Page>('GET', `/tools${query({ server: id })}`);
  return [
    h('h1', { tabindex: -1 }, id),
    h('p', {}, h('a', { href: route('servers') }, 'All servers')),
    pagedList(first, (cursor) => ({ server: id, cursor })),
  ];
}

/** A tool list with a "More" button while the API returns a cursor. */
function pagedList(first: Page, params: (cursor: string) => Record<string, string>): HTMLElement {
  const box = h('div', {}, toolList(first.tools));
  let cursor = first.nextCursor;
  const status = statusLine();
  const more = h('button', { type: 'button' }, 'More');
  more.addEventListener('click', () => {
    if (!cursor) return;
    more.disabled = true;
    api<Page>('GET', `/tools${query(params(cursor))}`)
      .then((page) => {
        box.append(toolList(page.tools));
        cursor = page.nextCursor;
        more.hidden = !cursor;
      })
      .catch((err: unknown) => {
        status.textContent = err instanceof Error ? err.message : String(err);
      })
      .finally(() => (more.disabled = false));
  });
  more.hidden = !cursor;
  return h('div', {}, box, more, status);
}

/** Renders `#/search?q=`. */
export async function searchView(q: string): Promise<Node[]> {
  const head = h('h1', { tabindex: -1 }, 'Search');
  if (!q.trim()) return [head, h('p', { class: 'muted' }, 'Type in the search box above (shortcut: /).')];
  const { results } = await api<{ results: ToolSummary[] }>('GET', `/search${query({ q, limit: 20 })}`);
  return [
    head,
    h('p', { class: 'muted' }, `${results.length} result${results.length === 1 ? '' : 's'} for “${q}”.`),
    toolList(results, true),
  ];
}
