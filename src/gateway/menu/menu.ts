// The menu an agent browses, in tiers (docs/menu.md, "Tiers"): T0 the hot list and T1 the
// categories (`browse_tools {}`), T2 one category's or one server's tools, paged by an opaque
// cursor tied to the catalog it paged, T3 one tool (`describe_tool`, not here). Every view reads
// the one VisibilityPolicy, so hidden tools never show and counts agree with search.
import { categoryLabel, CATEGORY_IDS, isCategoryId, type CategoryId } from '../../catalog/index.js';
import { createHash } from 'node:crypto';
import { CarteError, quote } from '../../errors.js';
import { policyTool, type VisibilityPolicy } from '../../policy/index.js';
import type { ToolRow, ToolSearchRow } from '../../store/index.js';
import { agentServer } from './agent-view.js';
import { summarize } from './summary.js';
import type {
  BrowseRequest,
  CategorySummary,
  GatewayServer,
  MenuAnswer,
  ServerSummary,
  ToolPage,
  ToolSummary,
} from '../shared/types.js';

/** Tools per T2 page. */
export const BROWSE_PAGE_SIZE = 50;
/** Example keys per category in T1. */
export const CATEGORY_EXAMPLES = 3;
/**
 * Above this many servers the menu lists servers without their descriptions: 500 servers with
 * one-line descriptions would cost more than the whole rest of the menu (bench/tokens).
 */
export const SERVER_DESCRIPTIONS_UP_TO = 20;

/** What the menu reads from the gateway. */
export interface MenuSource {
  policy: VisibilityPolicy;
  servers: readonly GatewayServer[];
  /** A listed tool's search columns (title, description). */
  row(key: string): ToolSearchRow | undefined;
  /** All stored tools of a server (a disabled server's are visible, not listed). */
  rowsOf(serverId: string): readonly ToolSearchRow[];
  summary(s: GatewayServer): ServerSummary;
  server(id: string): GatewayServer;
  /** T0: pinned tools, then the most used, listed only, at most the configured size. */
  hot(): readonly string[];
}

/** `browse_tools`: the menu (T0 + T1 + servers), or a T2 page. */
export function browse(src: MenuSource, asked: BrowseRequest): MenuAnswer | ToolPage {
  // An empty category or server means none, as it always has for `server`.
  const req: BrowseRequest = {
    ...(asked.category ? { category: asked.category } : {}),
    ...(asked.server ? { server: asked.server } : {}),
    ...(asked.cursor ? { cursor: asked.cursor } : {}),
  };
  if (req.category === undefined && req.server === undefined) {
    if (req.cursor)
      throw new CarteError('bad_input', 'a cursor pages a category or a server: pass the same one');
    return menu(src);
  }
  return page(src, req);
}

function menu(src: MenuSource): MenuAnswer {
  const { policy } = src;
  const counts = new Map<string, number>();
  for (const key of policy.visibleKeys()) {
    const id = policyTool(key).server;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const withDescriptions = src.servers.length <= SERVER_DESCRIPTIONS_UP_TO;
  return {
    kind: 'menu',
    hot: src.hot().map((key) => toolSummary(src, key, policy.verdict(key)?.pinned === true)),
    categories: categories(src),
    servers: src.servers.map((s) => {
      const a = agentServer(src.summary(s), counts.get(s.id) ?? 0, s);
      if (!withDescriptions) delete a.description;
      return a;
    }),
  };
}

/** T1: every category that holds a listed tool, biggest first, with counts and examples. */
export function categories(src: Pick<MenuSource, 'policy' | 'hot'>): CategorySummary[] {
  const { policy } = src;
  const byCategory = new Map<CategoryId, string[]>();
  for (const key of policy.listedKeys()) {
    const c = policy.verdict(key)!.category;
    const list = byCategory.get(c);
    if (list) list.push(key);
    else byCategory.set(c, [key]);
  }
  const hot = src.hot();
  return CATEGORY_IDS.flatMap((id) => {
    const keys = byCategory.get(id);
    if (!keys) return [];
    const servers = new Set(keys.map((k) => policyTool(k).server));
    return [
      {
        id,
        label: categoryLabel(id),
        tools: keys.length,
        servers: servers.size,
        examples: examples(keys, hot),
      },
    ];
  }).sort((a, b) => b.tools - a.tools || CATEGORY_IDS.indexOf(a.id) - CATEGORY_IDS.indexOf(b.id));
}

/**
 * Three keys that show what a category holds: its hot tools first, then one from each of its
 * biggest servers (so a category of ten servers is not shown as three tools of one).
 */
function examples(keys: readonly string[], hot: readonly string[]): string[] {
  const inCategory = new Set(keys);
  const picked = hot.filter((k) => inCategory.has(k)).slice(0, CATEGORY_EXAMPLES);
  const byServer = new Map<string, string[]>();
  for (const k of keys) {
    const s = policyTool(k).server;
    const list = byServer.get(s);
    if (list) list.push(k);
    else byServer.set(s, [k]);
  }
  const servers = [...byServer.values()].sort((a, b) => b.length - a.length);
  for (let round = 0; picked.length < Math.min(CATEGORY_EXAMPLES, keys.length); round++) {
    for (const list of servers) {
      const k = list[round];
      if (k !== undefined && !picked.includes(k) && picked.length < CATEGORY_EXAMPLES) picked.push(k);
    }
  }
  return picked;
}

/** T2: one category's or one server's tools (or both filters at once), one page. */
function page(src: MenuSource, req: BrowseRequest): ToolPage {
  const { policy } = src;
  const scope: ToolPage['scope'] = {};
  let keys: readonly string[];
  let status: { usable: boolean; reason?: string } | undefined;
  if (req.server !== undefined) {
    const s = src.server(req.server);
    scope.server = s.id;
    // A disabled server's tools stay browsable (and describable), marked unusable.
    keys = src
      .rowsOf(s.id)
      .map((t) => t.key)
      .filter((k) => policy.canSee(k));
    const { usable, reason } = agentServer(src.summary(s), keys.length, s);
    status = { usable, ...(reason ? { reason } : {}) };
  } else keys = policy.listedKeys();
  if (req.category !== undefined) {
    const category = checkCategory(req.category);
    scope.category = category;
    keys = keys.filter((k) => policy.verdict(k)!.category === category);
  }
  const offset = decodeCursor(scope, policy.fingerprint(), req.cursor);
  const tools = keys.slice(offset, offset + BROWSE_PAGE_SIZE).map((k) => toolSummary(src, k, false));
  const next = offset + BROWSE_PAGE_SIZE;
  return {
    kind: 'tools',
    scope,
    ...status,
    total: keys.length,
    offset,
    tools,
    ...(next < keys.length ? { nextCursor: encodeCursor(scope, policy.fingerprint(), next) } : {}),
  };
}

function toolSummary(src: MenuSource, key: string, pinned: boolean): ToolSummary {
  const t = src.row(key) ?? rowOf(src, key);
  return {
    key,
    ...(t?.title ? { title: t.title } : {}),
    summary: summarize(t?.description),
    ...(pinned ? { pinned: true } : {}),
  };
}

/** A visible tool that is not listed (its server is disabled) is not in the search view. */
function rowOf(src: MenuSource, key: string): Pick<ToolRow, 'title' | 'description'> | undefined {
  return src.rowsOf(policyTool(key).server).find((t) => t.key === key);
}

/** The category id, or an error listing the ten. */
export function checkCategory(value: string): CategoryId {
  if (isCategoryId(value)) return value;
  throw new CarteError(
    'bad_input',
    `unknown category ${quote(value)}; the categories are ${CATEGORY_IDS.join(', ')}`,
  );
}

/** A short digest of the scope a cursor pages, so a cursor for another scope is told apart. */
function scopeTag(scope: ToolPage['scope']): string {
  return createHash('sha256')
    .update(`${scope.category ?? ''}\0${scope.server ?? ''}`)
    .digest('base64url')
    .slice(0, 6);
}

/**
 * An opaque cursor `<offset base 36>.<catalog fingerprint>.<scope tag>`: short, because a token
 * budget pays for it, and tied to the catalog and scope it pages.
 */
export function encodeCursor(scope: ToolPage['scope'], fingerprint: string, offset: number): string {
  return `${offset.toString(36)}.${fingerprint}.${scopeTag(scope)}`;
}

/**
 * The offset a cursor points at. A cursor that is not ours or pages another scope is bad input;
 * one made before the catalog changed is refused (its pages would skip or repeat tools).
 */
export function decodeCursor(
  scope: ToolPage['scope'],
  fingerprint: string,
  cursor: string | undefined,
): number {
  if (cursor === undefined || cursor === '') return 0;
  const where = [scope.category && `category "${scope.category}"`, scope.server && `server "${scope.server}"`]
    .filter(Boolean)
    .join(' and ');
  const m = /^([0-9a-z]{1,8})\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]{6})$/.exec(cursor);
  if (!m || m[3] !== scopeTag(scope)) {
    throw new CarteError(
      'bad_input',
      `cursor ${JSON.stringify(cursor.slice(0, 40))} is not a browse cursor for ${where}`,
    );
  }
  if (m[2] !== fingerprint) {
    throw new CarteError(
      'bad_input',
      `cursor is stale: the catalog changed since it was made, so its pages would skip or repeat tools; browse ${where} again without a cursor`,
    );
  }
  return parseInt(m[1]!, 36);
}
