// One line that tells an agent what is behind the search and browse meta-tools (issue 14, item
// 5): servers with their tool counts, or for a big catalog the biggest categories. Built only from
// operator-chosen server ids, our category ids and counts, never from upstream text, and bounded
// by construction so the meta-tool listing stays under 500 tokens for any catalog.
import { policyTool, type VisibilityPolicy } from '../../policy/index.js';
import { count } from './summary.js';

/** Catalogs with at most this many servers are described server by server. */
export const DIGEST_SERVERS = 4;
/** Otherwise, this many categories (the biggest) are named. */
export const DIGEST_CATEGORIES = 4;
/** Server ids longer than this are cut with an ellipsis in the digest. */
const MAX_ID = 20;

/** What the catalog holds, long (search) and short (browse). */
export interface CatalogDigest {
  /** e.g. `Holds 41 tools: github (26), filesystem (14), time (1).` */
  long: string;
  /** e.g. `41 tools, 3 servers.` */
  short: string;
}

export function catalogDigest(policy: VisibilityPolicy): CatalogDigest {
  const keys = policy.listedKeys();
  if (keys.length === 0) return { long: 'Holds no tools yet.', short: 'No tools yet.' };
  const byServer = new Map<string, number>();
  const byCategory = new Map<string, number>();
  for (const k of keys) {
    const server = policyTool(k).server;
    byServer.set(server, (byServer.get(server) ?? 0) + 1);
    const c = policy.verdict(k)!.category;
    byCategory.set(c, (byCategory.get(c) ?? 0) + 1);
  }
  const biggest = (m: Map<string, number>, n: number) =>
    [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n);
  const tools = count(keys.length, 'tool');
  const servers = count(byServer.size, 'server');
  const short = `${tools}, ${servers}, ${count(byCategory.size, 'category', 'categories')}.`;
  if (byServer.size <= DIGEST_SERVERS) {
    const list = biggest(byServer, DIGEST_SERVERS).map(([id, n]) => `${cut(id)} (${n})`);
    return { long: `Holds ${tools}: ${list.join(', ')}.`, short };
  }
  const list = biggest(byCategory, DIGEST_CATEGORIES).map(([id, n]) => `${id} ${n}`);
  const more = byCategory.size > DIGEST_CATEGORIES ? ', ...' : '';
  return { long: `Holds ${tools} from ${servers}; most in ${list.join(', ')}${more}.`, short };
}

function cut(id: string): string {
  return id.length > MAX_ID ? `${id.slice(0, MAX_ID - 1)}…` : id;
}
