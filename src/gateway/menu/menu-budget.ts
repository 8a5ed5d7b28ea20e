// Menu answers and search results cut to a token budget (`maxTokens` on the meta-tools). The
// order in which detail is given up is fixed and documented in docs/menu.md ("Token budgets"):
// full -> summary -> key only, then a shorter list, always with a note saying what was left out
// and how to get the rest.
import { fitToBudget, type Rendering } from './budget.js';
import { encodeCursor } from './menu.js';
import type { MenuAnswer, SearchResult, ToolPage, ToolSummary } from '../shared/types.js';

const toolLevels: Rendering<ToolSummary>[] = [
  { name: 'full', render: (t) => t },
  {
    name: 'summary',
    render: (t) => ({ key: t.key, summary: t.summary, ...(t.pinned ? { pinned: true } : {}) }),
  },
  { name: 'key', render: (t) => ({ key: t.key }) },
];

const resultLevels: Rendering<SearchResult>[] = [
  { name: 'full', render: (r) => r },
  { name: 'summary', render: (r) => ({ key: r.key, summary: r.summary, relevance: r.relevance }) },
  { name: 'key', render: (r) => ({ key: r.key }) },
];

/** Ranked results within `maxTokens`: `{results, omitted?}`, as the MCP face sends them. */
export async function fitResults(
  results: readonly SearchResult[],
  maxTokens: number,
): Promise<{ results: SearchResult[]; omitted?: MenuAnswer['omitted'] }> {
  const fit = await fitToBudget({
    items: results,
    levels: resultLevels,
    envelope: {},
    key: 'results',
    maxTokens,
    hint: 'raise maxTokens, lower limit, or describe_tool a key for its detail',
  });
  return fit.answer as { results: SearchResult[]; omitted?: MenuAnswer['omitted'] };
}

/**
 * A T2 page within `maxTokens`; a page cut short carries a cursor to the first tool it left out.
 * When even the page's head does not fit beside a tool, the head shrinks to kind, total and offset.
 */
export async function fitPage(page: ToolPage, fingerprint: string, maxTokens: number): Promise<ToolPage> {
  const { tools, nextCursor, omitted: _, ...head } = page;
  const whole = await fitToBudget({
    items: tools,
    levels: toolLevels,
    envelope: { ...head, ...(nextCursor ? { nextCursor } : {}) },
    key: 'tools',
    maxTokens,
    hint: 'raise maxTokens',
  }).catch(() => undefined);
  if (whole && !whole.omitted?.count) return whole.answer as unknown as ToolPage;
  // Tools were dropped: the next page starts at the first of them, so the cursor moves there.
  const cursorAt = (shown: number) => encodeCursor(page.scope, fingerprint, page.offset + shown);
  const minimal = { kind: head.kind, total: head.total, offset: head.offset };
  let last: unknown;
  for (const envelope of [head, minimal]) {
    try {
      const cut = await fitToBudget({
        items: tools,
        levels: toolLevels,
        envelope,
        key: 'tools',
        maxTokens,
        hint: ({ shown }) => `rest: cursor "${cursorAt(shown)}"`,
      });
      if (cut.shown > 0 || envelope === minimal) return cut.answer as unknown as ToolPage;
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

/**
 * The menu within `maxTokens` (the answer is exactly what was counted: fields the budget dropped
 * are absent, not empty). Given up in order: the server list (its count stays), the hot
 * list's detail and length, the categories' examples, then categories from the smallest.
 */
export async function fitMenu(menu: MenuAnswer, maxTokens: number): Promise<MenuAnswer> {
  const { hot, categories, servers } = menu;
  const serversNote = `${servers?.length ?? 0} servers`;
  const whole = await fitToBudget({
    items: hot,
    levels: toolLevels.slice(0, 1),
    envelope: { kind: 'menu', categories, servers },
    key: 'hot',
    maxTokens,
    hint: 'raise maxTokens',
  }).catch(() => undefined);
  if (whole && !whole.omitted) return whole.answer as unknown as MenuAnswer;
  const compact = categories.map(({ examples: _, ...c }) => c);
  for (const cats of [categories, compact]) {
    const fit = await fitToBudget({
      items: hot,
      levels: toolLevels,
      envelope: { kind: 'menu', categories: cats },
      key: 'hot',
      maxTokens,
      hint: ({ omitted }) =>
        `${omitted ? 'hot list cut, ' : ''}${serversNote}${cats === compact ? ', examples' : ''} left out; raise maxTokens`,
    }).catch(() => undefined);
    // Enough of the hot list shown (or none to show): take it.
    if (fit && fit.shown >= Math.min(3, hot.length)) return fit.answer as unknown as MenuAnswer;
  }
  const fit = await fitToBudget({
    items: categories,
    levels: [
      { name: 'full', render: (c) => c },
      { name: 'counts', render: ({ examples: _, ...c }) => c },
      { name: 'id', render: (c) => ({ id: c.id, tools: c.tools }) },
    ],
    envelope: { kind: 'menu', hot: [] },
    key: 'categories',
    maxTokens,
    hint: `hot list, ${serversNote} left out`,
  });
  return fit.answer as unknown as MenuAnswer;
}
