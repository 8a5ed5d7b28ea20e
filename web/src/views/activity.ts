/** `#/activity`: calls over time, each server's latency and error rate, tokens saved, top tools, then the audit log. */
import { api, query, type Activity } from '../api.js';
import { h, route } from '../dom.js';
import type { ActivityFilters } from '../router.js';
import { auditSection } from './audit.js';
import { callsChart } from './chart.js';
import { hasScope, type ViewContext } from './common.js';

const RANGES = {
  hour: { label: 'Last hour', unit: 'minute' },
  week: { label: 'Last 7 days', unit: 'hour' },
} as const;

/** Renders `#/activity`. */
export async function activityView(f: ActivityFilters, ctx: ViewContext): Promise<Node[]> {
  const a = await api<Activity>('GET', `/activity${query({ range: f.range })}`);
  const { label, unit } = RANGES[f.range];
  const head = [
    h('h1', { tabindex: -1 }, 'Activity'),
    h('p', { class: 'muted' }, `Project ${a.project}: what its clients called, and how it went.`),
    h(
      'nav',
      { class: 'tabs', 'aria-label': 'Range' },
      (['hour', 'week'] as const).map((r) =>
        h(
          'a',
          {
            href: `#/activity${query({ ...f, range: r === 'hour' ? '' : r })}`,
            ...(r === f.range ? { 'aria-current': 'true' } : {}),
          },
          RANGES[r].label,
        ),
      ),
    ),
  ];
  const audit = hasScope(ctx.me, 'admin')
    ? await auditSection(f, a.project)
    : [
        h('h2', {}, 'Audit log'),
        h('p', { class: 'muted' }, 'The audit log needs a token with the admin scope.'),
      ];
  if (a.calls === 0 && a.sessions === 0) {
    return [
      ...head,
      h(
        'div',
        { class: 'empty' },
        h('p', {}, `No calls in the ${label.toLowerCase()} yet.`),
        h(
          'p',
          {},
          'Connect a client with ',
          h('code', {}, 'carte install'),
          ' (or point it at this server’s ',
          h('code', {}, '/mcp'),
          '), or call a tool from the ',
          h('a', { href: '#/' }, 'Menu'),
          '.',
        ),
      ),
      ...audit,
    ];
  }
  return [
    ...head,
    h(
      'p',
      { class: 'totals' },
      `${plural(a.calls, 'call')}, ${plural(a.errors, 'error')} (${percent(a.calls ? a.errors / a.calls : 0)})`,
    ),
    await callsChart(a.series, unit),
    h('h2', {}, 'Tokens saved'),
    savedLine(a),
    h('h2', {}, 'Servers'),
    serverTable(a),
    h('h2', {}, 'Top tools'),
    a.topTools.length
      ? h(
          'ol',
          { class: 'usage' },
          a.topTools.map((t) => {
            const [server = '', ...rest] = t.key.split('/');
            return h(
              'li',
              {},
              h('a', { href: route('tool', server, rest.join('/')) }, h('code', {}, t.key)),
              h(
                'span',
                { class: 'muted' },
                ` ${plural(t.calls, 'call')} · ${percent(t.errorRate)} errors · p50 ${ms(t.p50Ms)}`,
              ),
            );
          }),
        )
      : h('p', { class: 'muted' }, 'No tool called in this range.'),
    ...audit,
  ];
}

function savedLine(a: Activity): HTMLElement {
  if (a.sessions === 0)
    return h(
      'p',
      { class: 'muted' },
      'No session has ended in this range: the figure is written when a client disconnects.',
    );
  const ratio = a.savedRatio === null ? '' : ` (${percent(a.savedRatio)})`;
  return h(
    'p',
    {},
    h('strong', { class: 'saved' }, `${a.tokensSaved.toLocaleString('en-US')} tokens${ratio}`),
    ` over ${plural(a.sessions, 'session')}: Carte sent ${a.tokensSent.toLocaleString('en-US')}; listing every tool would have cost ${a.tokensListing.toLocaleString('en-US')}.`,
  );
}

function serverTable(a: Activity): HTMLElement {
  if (a.servers.length === 0) return h('p', { class: 'muted' }, 'No server was called in this range.');
  const head = ['Server', 'Calls', 'Errors', 'p50', 'p95'].map((t) => h('th', { scope: 'col' }, t));
  return h(
    'table',
    { class: 'stats' },
    h('thead', {}, h('tr', {}, head)),
    h(
      'tbody',
      {},
      a.servers.map((s) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, h('a', { href: route('server', s.server) }, s.server)),
          h('td', {}, String(s.calls)),
          h('td', { class: s.errors ? 'bad' : '' }, percent(s.errorRate)),
          h('td', {}, ms(s.p50Ms)),
          h('td', {}, ms(s.p95Ms)),
        ),
      ),
    ),
  );
}

/** 0.25 as "25%", small shares with one decimal. */
export function percent(ratio: number): string {
  const p = ratio * 100;
  return `${p > 0 && p < 10 ? p.toFixed(1) : Math.round(p)}%`;
}

/** A duration as "12 ms" or "1.4 s". */
export function ms(value: number): string {
  return value < 1000
    ? `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`
    : `${(value / 1000).toFixed(1)} s`;
}

/** "1 call", "5 calls". */
function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
