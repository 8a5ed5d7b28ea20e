// The catalogs bench:tokens measures, as the `tools/list` text an MCP client would be sent.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { normaliseServerId, resolveDataDir } from '../../src/config/index.js';
import { openStore } from '../../src/gateway/index.js';
import { META_TOOLS } from '../../src/mcp/index.js';
import { benchDataDir, loadBigCatalog } from '../core/bench-data.js';
import { flag } from '../core/paths.js';

/** One tool as `tools/list` carries it. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

/** The `tools/list` result's JSON text (what a client reads, before its own formatting for the model). */
export function listingText(tools: readonly unknown[]): string {
  return JSON.stringify({ tools });
}

/** What Carte lists: the four meta-tools, whatever the catalog. */
export function metaListing(): string {
  return listingText(META_TOOLS);
}

/**
 * The big bench catalog (../shared/bench or `--data DIR`) as one aggregated listing, the way a
 * gateway without meta-tools would list every tool: named by Carte key (`server/name`, with the
 * server id normalised as `bench/core/big-catalog.ts` does), schemas verbatim.
 */
export function bigCatalogTools(): ListedTool[] {
  return loadBigCatalog(benchDataDir()).map((t) => ({
    name: `${normaliseServerId(t.server)}/${t.name}`,
    ...(t.description ? { description: t.description } : {}),
    inputSchema: t.inputSchema ?? { type: 'object' },
  }));
}

/**
 * The stored catalog of a synced data dir (`--demo-data DIR`, else Carte's default data dir), or
 * why there is none. Run `carte sync` (with no config file, it syncs the demo) to make one.
 */
export function storedCatalogTools(): { dir: string; tools?: ListedTool[] } {
  const dir =
    flag('demo-data') ?? resolveDataDir({ env: process.env, platform: process.platform, home: homedir() });
  const path = join(dir, 'carte.db');
  if (!existsSync(path)) return { dir };
  const store = openStore(path);
  try {
    const tools = store.tools.listAll().map((t) => ({
      name: t.key,
      ...(t.description ? { description: t.description } : {}),
      inputSchema: t.inputSchema,
    }));
    return tools.length ? { dir, tools } : { dir };
  } finally {
    store.close();
  }
}
