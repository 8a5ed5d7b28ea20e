import type { CAC } from 'cac';
import type { Store, ToolUsage } from '../../gateway/index.js';
import { openApp, type GlobalFlags } from '../shared/app.js';
import { parseDurationFlag } from '../shared/flags.js';
import { count, formatMs, formatPercent, formatTable, out, outJson } from '../shared/output.js';

/** Tools listed under "top tools". */
const TOP_TOOLS = 5;

/** `carte stats --json` (field names are stable: docs/cli.md). */
export interface Stats {
  /** ISO start of the range, or null for all the activity kept (90 days by default). */
  since: string | null;
  /** Downstream sessions that ended in the range, and their token sums. */
  sessions: number;
  tokensSent: number;
  tokensListing: number;
  /** tokensListing - tokensSent: negative when Carte sent more than a full listing would have cost. */
  tokensSaved: number;
  /** tokensSaved / tokensListing, or null with no listing to compare. */
  savedRatio: number | null;
  /** Tool calls in the range, and those that did not end ok (tool errors and Carte's). */
  calls: number;
  errors: number;
  topTools: ToolUsage[];
}

/** `carte stats [--since 7d]`: sessions, tokens saved against the full listing, calls and the most used tools. */
export function registerStats(cli: CAC): void {
  cli
    .command('stats', 'Show sessions, tokens saved, calls and the most used tools')
    .option('--since <duration>', 'Only this recent activity: 30m, 24h, 7d, 2w (default: all kept)')
    .option('--json', 'Print JSON')
    .action(async (flags: GlobalFlags & { since?: string; json?: boolean }) => {
      const range = parseDurationFlag('--since', flags.since);
      const app = await openApp(flags);
      try {
        const stats = await readStats(app.store, range === undefined ? undefined : Date.now() - range);
        if (flags.json) return outJson(stats);
        out(formatStats(stats, flags.since));
      } finally {
        await app.close();
      }
    });
}

async function readStats(store: Store, since: number | undefined): Promise<Stats> {
  const range = since === undefined ? {} : { since };
  const [s, usage, keys] = await Promise.all([
    store.activity.sessionStats(range),
    store.activity.usageByTool(range),
    store.tools.listKeys(),
  ]);
  const tokensSaved = s.tokensListing - s.tokensSent;
  const known = new Set(keys);
  return {
    since: since === undefined ? null : new Date(since).toISOString(),
    ...s,
    tokensSaved,
    savedRatio: s.tokensListing > 0 ? tokensSaved / s.tokensListing : null,
    calls: usage.reduce((n, u) => n + u.calls, 0),
    errors: usage.reduce((n, u) => n + u.errors, 0),
    // Calls to unknown keys count as calls and errors above, but they are not tools.
    topTools: usage.filter((u) => known.has(u.key)).slice(0, TOP_TOOLS),
  };
}

function formatStats(s: Stats, since: string | undefined): string {
  const num = (n: number) => n.toLocaleString('en-US');
  const head =
    s.since === null
      ? 'all recorded activity'
      : `since ${s.since.slice(0, 16).replace('T', ' ')} UTC (${String(since).trim()})`;
  const saved = s.savedRatio === null ? '-' : `${num(s.tokensSaved)} (${formatPercent(s.savedRatio)})`;
  const lines = [
    head,
    formatTable([
      ['  sessions', num(s.sessions)],
      ['  tokens sent', num(s.tokensSent)],
      ['  full listing', num(s.tokensListing)],
      ['  tokens saved', saved],
      ['  calls', `${num(s.calls)} (${count(s.errors, 'error')})`],
    ]),
  ];
  if (s.topTools.length === 0) return [...lines, 'top tools: none called'].join('\n');
  const rows = s.topTools.map((u) => [
    `  ${u.key}`,
    count(u.calls, 'call'),
    `${formatPercent(u.errorRate)} errors`,
    `p50 ${formatMs(u.p50Ms)}`,
  ]);
  return [...lines, 'top tools', formatTable(rows)].join('\n');
}
