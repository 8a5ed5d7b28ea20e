import type { CAC } from 'cac';
import { CATEGORY_IDS, LOCAL_CALLER, type ToolUsage } from '../../gateway/index.js';
import { CarteError, quote } from '../../errors.js';
import { openApp, type App, type GlobalFlags } from '../shared/app.js';
import {
  clip,
  count,
  formatAgo,
  formatMs,
  formatPercent,
  formatTable,
  out,
  outJson,
} from '../shared/output.js';

interface ToolsFlags extends GlobalFlags {
  server?: string;
  category?: string;
  hidden?: boolean;
  usage?: boolean;
  json?: boolean;
}

/** One line of `carte tools --json` (field names are stable: docs/cli.md). */
export interface ToolLine {
  key: string;
  server: string;
  visible: boolean;
  /** Its server is enabled, so it can be called. */
  enabled: boolean;
  category: string;
  tags: readonly string[];
  /** The intent phrases rules attach to it (search reads them); empty when none. */
  useCases: readonly string[];
  pinned: boolean;
  /** Index of the rule that decided its visibility, or null. */
  decidedBy: number | null;
  why: string;
  /** Only with `--usage`: null for a tool never called. */
  usage?: Omit<ToolUsage, 'key'> | null;
}

/** `carte tools`: every stored tool with the rule that decided it, its category and tags (hidden ones with --hidden). */
export function registerTools(cli: CAC): void {
  cli
    .command('tools', 'List tools with their category, tags, use cases and the rule that shows or hides them')
    .option('--server <id>', "Only this server's tools")
    .option('--category <id>', `Only this category's tools (${CATEGORY_IDS.join(', ')})`)
    .option('--hidden', 'Show only the hidden tools, with the rule that hides them')
    .option('--usage', 'Add calls, error rate, median latency and last use; most called first')
    .option('--json', 'Print JSON')
    .action(async (flags: ToolsFlags) => {
      const app = await openApp(flags);
      try {
        const all = await toolLines(app, flags);
        const lines = all.filter((t) => t.visible !== (flags.hidden === true));
        if (flags.json) return outJson(lines);
        if (lines.length > 0) out(formatTools(lines, flags));
        out(footer(lines.length, all.length - lines.length, flags));
      } finally {
        await app.close();
      }
    });
}

async function toolLines(app: App, flags: ToolsFlags): Promise<ToolLine[]> {
  const server = flags.server === undefined ? undefined : app.gateway.server(String(flags.server)).id;
  const category = flags.category === undefined ? undefined : checkCategory(String(flags.category));
  const usage = flags.usage
    ? new Map((await app.store.activity.usageByTool()).map((u) => [u.key, u]))
    : undefined;
  const lines = app.gateway
    .toolVerdicts(LOCAL_CALLER)
    .filter(({ key, verdict }) => {
      if (server !== undefined && serverOf(key) !== server) return false;
      return category === undefined || verdict.category === category;
    })
    .map(({ key, verdict: v, why }): ToolLine => {
      const line: ToolLine = {
        key,
        server: serverOf(key),
        visible: v.visible,
        enabled: v.enabled,
        category: v.category,
        tags: v.tags,
        useCases: v.useCases ?? [],
        pinned: v.pinned,
        decidedBy: v.decidedBy,
        why,
      };
      if (!usage) return line;
      const u = usage.get(key);
      return { ...line, usage: u ? withoutKey(u) : null };
    });
  if (usage) lines.sort((a, b) => (b.usage?.calls ?? 0) - (a.usage?.calls ?? 0) || (a.key < b.key ? -1 : 1));
  return lines;
}

function withoutKey(u: ToolUsage): Omit<ToolUsage, 'key'> {
  const { key: _key, ...rest } = u;
  return rest;
}

/** The same message the gateway gives for `browse_tools {category}`. */
function checkCategory(value: string): string {
  if ((CATEGORY_IDS as readonly string[]).includes(value)) return value;
  throw new CarteError(
    'bad_input',
    `unknown category ${quote(value)}; the categories are ${CATEGORY_IDS.join(', ')}`,
  );
}

/** Server ids never hold a "/" (config SERVER_ID_PATTERN); tool names may. */
function serverOf(key: string): string {
  return key.slice(0, key.indexOf('/'));
}

function formatTools(lines: readonly ToolLine[], flags: ToolsFlags): string {
  const usageHead = flags.usage ? ['CALLS', 'ERRORS', 'P50', 'LAST USED'] : [];
  // The column only when a rule gives some tool use cases: most configs have none.
  const useCases = lines.some((t) => t.useCases.length > 0);
  const rows = lines.map((t) => [
    t.key,
    ...(flags.usage ? usageCells(t.usage ?? null) : []),
    t.category,
    clip(t.tags.join(', '), 40) || '-',
    ...(useCases ? [clip(t.useCases.join('; '), 60) || '-'] : []),
    t.pinned ? '*' : '',
    t.why,
  ]);
  const head = ['TOOL', ...usageHead, 'CATEGORY', 'TAGS', ...(useCases ? ['USE CASES'] : []), 'PIN', 'WHY'];
  return formatTable([head, ...rows]);
}

function usageCells(u: Omit<ToolUsage, 'key'> | null): string[] {
  if (!u) return ['-', '-', '-', '-'];
  return [String(u.calls), formatPercent(u.errorRate), formatMs(u.p50Ms), formatAgo(u.lastUsedAt)];
}

/** `12 tools shown; 2 hidden: carte tools --hidden`, scoped like the listing. */
function footer(shown: number, others: number, flags: ToolsFlags): string {
  const scope = [
    flags.server !== undefined ? ` on server "${String(flags.server)}"` : '',
    flags.category !== undefined ? ` in category "${String(flags.category)}"` : '',
  ].join('');
  if (flags.hidden) return `${count(shown, 'hidden tool')}${scope}; ${others} shown`;
  const hint = others > 0 ? `; ${others} hidden: carte tools --hidden` : '';
  return `${count(shown, 'tool')} shown${scope}${hint}`;
}
