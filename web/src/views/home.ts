/** The landing view: categories with counts, then the hot list. */
import { api, type Category, type ToolSummary } from '../api.js';
import { h, route } from '../dom.js';
import { toolList } from './common.js';

/** Renders `#/`. */
export async function homeView(): Promise<Node[]> {
  const [{ categories }, { tools }] = await Promise.all([
    api<{ categories: Category[] }>('GET', '/categories'),
    api<{ tools: ToolSummary[] }>('GET', '/hot'),
  ]);
  const total = categories.reduce((n, c) => n + c.toolCount, 0);
  return [
    h('h1', { tabindex: -1 }, 'Menu'),
    h('p', { class: 'muted' }, `${total} tools in ${categories.length} categories.`),
    h('h2', {}, 'Categories'),
    categories.length === 0
      ? h('p', { class: 'muted' }, 'No tools yet: add a server to the config, or check Servers.')
      : h('ul', { class: 'cards' }, categories.map(categoryCard)),
    h('h2', {}, 'Hot'),
    tools.length
      ? toolList(tools)
      : h('p', { class: 'muted' }, 'Nothing hot yet: pinned and often called tools show here.'),
  ];
}

function categoryCard(c: Category): HTMLElement {
  return h(
    'li',
    {},
    h(
      'a',
      { href: route('category', c.id), class: 'card' },
      h('span', { class: 'card-title' }, c.label),
      h(
        'span',
        { class: 'muted' },
        `${c.toolCount} tool${c.toolCount === 1 ? '' : 's'} · ${c.serverCount} server${c.serverCount === 1 ? '' : 's'}`,
      ),
      c.examples.length ? h('span', { class: 'card-examples' }, c.examples.slice(0, 3).join(', ')) : null,
    ),
  );
}
