// Reads what a (possibly just killed) Carte left in its store, and names which catalog version
// it holds. The oracle for a version is the fixture's documented contract (crash-versioned.mjs).
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { openStore } from '../../src/store/index.js';

export type Version = 'A' | 'B';
/** Which catalog a set of tools is: nothing, exactly one version, or anything else. */
export type Classified = 'empty' | Version | 'mixed';

export interface StoreState {
  /** `PRAGMA integrity_check` through the driver directly ('ok' when sound). */
  integrity: string;
  status: string | null;
  /** `servers.tool_count` (null when the server row does not exist yet). */
  toolCount: number | null;
  tools: Array<{ name: string; description: string | null }>;
  catalog: Classified;
}

/** The 40 tool names of one version: shared_00..shared_29 and alpha_/beta_30..39. */
export function versionNames(v: Version): string[] {
  const own = v === 'A' ? 'alpha' : 'beta';
  return [
    ...Array.from({ length: 30 }, (_, i) => `shared_${String(i).padStart(2, '0')}`),
    ...Array.from({ length: 10 }, (_, i) => `${own}_${30 + i}`),
  ].sort();
}

/** Names the version of a tool set; 'mixed' for names or descriptions of both, or a partial set. */
export function classify(tools: ReadonlyArray<{ name: string; description: string | null }>): Classified {
  if (tools.length === 0) return 'empty';
  for (const v of ['A', 'B'] as const) {
    const names = tools.map((t) => t.name).sort();
    const sameNames = JSON.stringify(names) === JSON.stringify(versionNames(v));
    if (sameNames && tools.every((t) => t.description?.startsWith(`Version ${v} `))) return v;
  }
  return 'mixed';
}

/** The store's state for one server; a store file that does not exist yet reads as empty. */
export async function readState(dbPath: string, serverId: string): Promise<StoreState> {
  if (!existsSync(dbPath))
    return { integrity: 'ok', status: null, toolCount: null, tools: [], catalog: 'empty' };
  const db = new Database(dbPath);
  let integrity: string;
  try {
    integrity = String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
  const store = await openStore(dbPath);
  try {
    const row = await store.servers.get(serverId);
    const tools = (await store.tools.listByServer(serverId)).map((t) => ({
      name: t.name,
      description: t.description,
    }));
    return {
      integrity,
      status: row?.status ?? null,
      toolCount: row?.toolCount ?? null,
      tools,
      catalog: classify(tools),
    };
  } finally {
    await store.close();
  }
}
