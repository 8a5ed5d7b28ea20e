import type { CAC } from 'cac';
import { categoryLabel, LOCAL_CALLER, type BrowseResult, type Gateway } from '../../gateway/index.js';
import { openApp, type GlobalFlags } from '../shared/app.js';
import { clip, count, formatTable, out, outJson } from '../shared/output.js';

type MenuAnswer = Extract<BrowseResult, { kind: 'menu' }>;
type ToolPage = Extract<BrowseResult, { kind: 'tools' }>;

/** Every page of a category or server, joined: `carte menu <category> --json` (docs/cli.md). */
export type ToolList = Omit<ToolPage, 'offset' | 'nextCursor' | 'omitted'>;

/** Widest summary shown in a row, in characters. */
const SUMMARY_WIDTH = 100;

/** `carte menu [category] [--server S]`: the tiers agents browse, for people. */
export function registerMenu(cli: CAC): void {
  cli
    .command('menu [category]', "Show the hot list and the categories, or one category's or server's tools")
    .option('--server <id>', "Only this server's tools")
    .option('--json', 'Print JSON')
    .action(
      async (category: string | undefined, flags: GlobalFlags & { server?: string; json?: boolean }) => {
        const app = await openApp(flags);
        try {
          const scope = {
            ...(category === undefined ? {} : { category: String(category) }),
            ...(flags.server === undefined ? {} : { server: String(flags.server) }),
          };
          if (scope.category === undefined && scope.server === undefined) {
            const menu = (await app.gateway.browseTools(LOCAL_CALLER, {})) as MenuAnswer;
            if (flags.json) return outJson(menu);
            return out(formatMenu(menu));
          }
          const list = await allPages(app.gateway, scope);
          if (flags.json) return outJson(list);
          out(formatList(list));
        } finally {
          await app.close();
        }
      },
    );
}

/** Follows `nextCursor` to the end; the gateway checks the category and server. */
async function allPages(gateway: Gateway, scope: { category?: string; server?: string }): Promise<ToolList> {
  let page = (await gateway.browseTools(LOCAL_CALLER, scope)) as ToolPage;
  const tools = [...page.tools];
  while (page.nextCursor !== undefined) {
    page = (await gateway.browseTools(LOCAL_CALLER, { ...scope, cursor: page.nextCursor })) as ToolPage;
    tools.push(...page.tools);
  }
  const { offset: _offset, nextCursor: _next, omitted: _omitted, ...rest } = page;
  return { ...rest, tools };
}

function formatMenu(menu: MenuAnswer): string {
  const lines: string[] = [];
  if (menu.hot.length === 0) lines.push('Hot: nothing yet (pin tools with a rule, or call some)');
  else {
    lines.push('Hot');
    const rows = menu.hot.map((t) => [
      `  ${t.key}`,
      t.pinned ? 'pinned' : '',
      clip(t.summary, SUMMARY_WIDTH),
    ]);
    lines.push(formatTable(rows));
  }
  if (menu.categories.length === 0) lines.push('', 'Categories: none (no tools listed; run carte sync)');
  else {
    lines.push('', 'Categories');
    const rows = menu.categories.map((c) => [
      `  ${c.id}`,
      c.label,
      count(c.tools, 'tool'),
      count(c.servers, 'server'),
      c.examples.join(', '),
    ]);
    lines.push(formatTable(rows));
  }
  lines.push('', "carte menu <category> lists a category's tools; carte menu --server <id> a server's");
  return lines.join('\n');
}

function formatList(list: ToolList): string {
  const { category, server } = list.scope;
  const what = [
    category === undefined ? '' : `${category} (${categoryLabel(category)})`,
    server === undefined ? '' : `server ${server}`,
  ]
    .filter(Boolean)
    .join(' on ');
  const lines = [`${what}: ${count(list.total, 'tool')}`];
  if (list.usable === false) lines.push(`not usable now: ${list.reason ?? 'unknown reason'}`);
  if (list.tools.length > 0)
    lines.push(formatTable(list.tools.map((t) => [`  ${t.key}`, clip(t.summary, SUMMARY_WIDTH)])));
  return lines.join('\n');
}
