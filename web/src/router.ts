/**
 * Hash routes: `#/`, `#/category/web`, `#/server/id`, `#/tool/server/name`, `#/search?q=`, `#/servers`,
 * `#/approvals`, `#/activity?range=&tool=&outcome=&subject=&since=`, `#/tokens`.
 */
export type Route =
  | { view: 'home' }
  | { view: 'category'; id: string }
  | { view: 'server'; id: string }
  | { view: 'tool'; key: string }
  | { view: 'search'; q: string }
  | { view: 'servers' }
  | { view: 'approvals' }
  | { view: 'activity'; filters: ActivityFilters }
  | { view: 'tokens' }
  | { view: 'missing'; hash: string };

/** The activity view's chart range and audit filters, as the hash carries them ('' when unset). */
export interface ActivityFilters {
  range: 'hour' | 'week';
  tool: string;
  outcome: string;
  /** An identity provider's subject (`sub`): the rows of that person's tokens. */
  subject: string;
  since: string;
}

/**
 * What an audit row's outcome can be: ok, the tool's own error, still running, its process died
 * before it finished (interrupted), or any Carte error code (src/errors.ts).
 */
export const AUDIT_OUTCOMES = [
  'ok',
  'tool_error',
  'started',
  'interrupted',
  'denied',
  'timeout',
  'cancelled',
  'busy',
  'rate_limited',
  'upstream_error',
  'upstream_unavailable',
  'needs_sign_in',
  'url_elicitation_required',
  'script_error',
  'server_disabled',
  'unknown_tool',
  'unknown_server',
  'bad_input',
  'unauthorized',
  'bad_config',
  'store',
  'store_unavailable',
  'internal',
];

/** The route a location hash names (unknown hashes give `missing`, never an exception). */
export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const qAt = raw.indexOf('?');
  const path = qAt < 0 ? raw : raw.slice(0, qAt);
  const params = new URLSearchParams(qAt < 0 ? '' : raw.slice(qAt + 1));
  let parts: string[];
  try {
    parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return { view: 'missing', hash };
  }
  const [head, a, b] = parts;
  if (head === undefined) return { view: 'home' };
  if (head === 'category' && a && !b) return { view: 'category', id: a };
  if (head === 'server' && a && !b) return { view: 'server', id: a };
  if (head === 'tool' && a && b && parts.length === 3) return { view: 'tool', key: `${a}/${b}` };
  if (head === 'search' && !a) return { view: 'search', q: params.get('q') ?? '' };
  if (head === 'servers' && !a) return { view: 'servers' };
  if (head === 'approvals' && !a) return { view: 'approvals' };
  if (head === 'tokens' && !a) return { view: 'tokens' };
  if (head === 'activity' && !a) {
    const filters = {
      range: params.get('range') === 'week' ? ('week' as const) : ('hour' as const),
      tool: params.get('tool') ?? '',
      outcome: params.get('outcome') ?? '',
      subject: params.get('subject') ?? '',
      since: params.get('since') ?? '',
    };
    return { view: 'activity', filters };
  }
  return { view: 'missing', hash };
}
