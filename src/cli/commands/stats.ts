import type { CAC } from 'cac';
import { readStats, type Stats } from '../../gateway/index.js';
import { openApp, type GlobalFlags } from '../shared/app.js';
import { parseDurationFlag } from '../shared/flags.js';
import { count, formatMs, formatPercent, formatTable, out, outJson } from '../shared/output.js';

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
        const stats = await readStats(app.store, range === undefined ? {} : { since: Date.now() - range });
        if (flags.json) return outJson(stats);
        out(formatStats(stats, flags.since));
      } finally {
        await app.close();
      }
    });
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
