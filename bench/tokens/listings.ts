// The catalogs bench:tokens measures, as the `tools/list` text an MCP client would be sent.
import { join } from 'node:path';
import { normaliseServerId } from '../../src/config/index.js';
import { openStore } from '../../src/gateway/index.js';
import { META_TOOLS } from '../../src/mcp/index.js';
import { benchDataDir, loadBigCatalog, type BenchTool } from '../core/bench-data.js';

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

/** The four meta-tools without a catalog digest (tiers.ts measures them with each catalog's). */
export function metaListing(): string {
  return listingText(META_TOOLS);
}

/**
 * The big bench catalog (../shared/bench or `--data DIR`) as one aggregated listing, the way a
 * gateway without meta-tools would list every tool: named by Carte key (`server/name`, with the
 * server id normalised as `bench/core/big-catalog.ts` does), schemas verbatim.
 */
export function bigCatalogTools(raw: readonly BenchTool[] = loadBigCatalog(benchDataDir())): ListedTool[] {
  return raw.map((t) => ({
    name: `${normaliseServerId(t.server)}/${t.name}`,
    ...(t.description ? { description: t.description } : {}),
    inputSchema: t.inputSchema ?? { type: 'object' },
  }));
}

/** Every tool stored in a synced data dir (`<dataDir>/carte.db`), named by key. */
export async function storedCatalogTools(dataDir: string): Promise<ListedTool[]> {
  const store = await openStore(join(dataDir, 'carte.db'));
  try {
    return (await store.tools.listAll()).map((t) => ({
      name: t.key,
      ...(t.description ? { description: t.description } : {}),
      inputSchema: t.inputSchema,
    }));
  } finally {
    await store.close();
  }
}
