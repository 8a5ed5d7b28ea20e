// The exact-name guarantee: a query that names a tool (by key or by name) gets it first.

import { tokenize } from '../text/tokenize.js';

/** What the exact matcher needs of each document. */
export interface NamedDoc {
  key: string;
  server: string;
  name: string;
}

/** Exact matches of one query as document numbers, in tiers (earlier tiers rank first). */
export interface ExactMatch {
  /** Documents pinned above every lexical hit; order inside a tier is left to the ranker. */
  tiers: number[][];
}

// A word "looks like an identifier" when nobody would type it as plain prose: it has a
// separator or an inner capital/digit (read_file, getUser, s3-upload, v2.list).
const IDENTIFIER = /[_.\-/]|\p{Ll}\p{Lu}|\p{L}\p{N}/u;

/** Lookup tables for exact key and exact name matches, built once per index. */
export interface ExactTable {
  match(query: string): ExactMatch;
}

function pushTo(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

/** Build the tables over `docs` (document number = array position). */
export function buildExactTable(docs: readonly NamedDoc[]): ExactTable {
  const perServer = new Map<string, ReadonlySet<string>>(); // one set per server, shared by its tools
  const serverWords = (server: string): ReadonlySet<string> => {
    let words = perServer.get(server);
    if (!words) perServer.set(server, (words = new Set([server.toLowerCase(), ...tokenize(server)])));
    return words;
  };
  const byKey = new Map<string, number[]>();
  const byName = new Map<string, number[]>();
  docs.forEach((d, i) => {
    pushTo(byKey, d.key.toLowerCase(), i);
    pushTo(byName, d.name.toLowerCase(), i);
  });
  const tables: Tables = {
    byKey,
    byName,
    servers: docs.map((d) => serverWords(d.server)),
  };
  return {
    match(query) {
      const q = query.trim().toLowerCase();
      if (q === '') return { tiers: [] };
      const key = byKey.get(q);
      if (key) return { tiers: [[...key]] };
      const whole = byName.get(q);
      if (whole) return { tiers: [[...whole]] };
      return { tiers: matchWords(q, tables).filter((t) => t.length > 0) };
    },
  };
}

/** Lookups by lower-cased key and name, and each tool's server id and its words. */
interface Tables {
  byKey: Map<string, number[]>;
  byName: Map<string, number[]>;
  servers: readonly ReadonlySet<string>[];
}

/**
 * A query such as "github create_issue" or "create_issue on github": every word that is a key,
 * or an identifier-like tool name, pins its tools; tools whose server the other words name go first.
 */
function matchWords(q: string, { byKey, byName, servers }: Tables): number[][] {
  const words = q.split(/\s+/);
  const named: number[] = [];
  const others: number[] = [];
  const seen = new Set<number>();
  const add = (tier: number[], ids: readonly number[]): void => {
    for (const i of ids) {
      if (seen.has(i)) continue;
      seen.add(i);
      tier.push(i);
    }
  };
  words.forEach((word, w) => {
    const keyHit = byKey.get(word);
    if (keyHit) return add(named, keyHit);
    const hits = byName.get(word);
    if (!hits) return;
    const rest = words.filter((_, j) => j !== w);
    const onNamedServer = hits.filter((i) => rest.some((r) => servers[i]!.has(r)));
    add(named, onNamedServer);
    if (IDENTIFIER.test(word)) add(others, hits);
  });
  return [named, others];
}
