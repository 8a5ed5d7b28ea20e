// Categories kept in the store (issue 14, item 2): each tool's automatic category and tags are
// stored with it and rewritten whenever its server's tools change. A server is always recomputed
// whole, since server evidence makes every tool's category depend on its neighbours
// (docs/menu.md, "How categories are assigned").
import type { Repositories, Store, ToolRow } from '../../store/index.js';
import { categorizeServer, type CategorizeServer, type CategorizeTool } from './categorize.js';

/** Top-level property names of an input schema (none unless `properties` is an object). */
function paramNames(schema: unknown): string[] {
  const props = (schema as { properties?: unknown } | null | undefined)?.properties;
  return props && typeof props === 'object' && !Array.isArray(props) ? Object.keys(props) : [];
}

function toCategorizeTool(row: ToolRow): CategorizeTool {
  return {
    key: row.key,
    name: row.name,
    title: row.title ?? undefined,
    description: row.description ?? undefined,
    paramNames: paramNames(row.inputSchema),
  };
}

/**
 * Categorises every stored tool of one server together and stores the results; returns how
 * many tools were written. The caller holds the transaction (a sync's, or the back-fill's).
 */
export async function categorizeStoredServer(store: Repositories, server: CategorizeServer): Promise<number> {
  const rows = await store.tools.listByServer(server.id);
  if (rows.length === 0) return 0;
  const categories = categorizeServer(server, rows.map(toCategorizeTool));
  await store.tools.setCategories(
    [...categories].map(([key, { category, tags }]) => ({ key, category, tags })),
  );
  return rows.length;
}

/**
 * Categorises every server that has a tool without a stored category (a store from before
 * categories were stored, or rows written without a sync), one transaction per server; returns
 * how many tools were written. `descriptions` maps server ids to their configured descriptions.
 */
export async function backfillCategories(
  store: Store,
  descriptions: ReadonlyMap<string, string>,
): Promise<number> {
  let written = 0;
  for (const id of await store.tools.serversMissingCategories()) {
    const description = descriptions.get(id);
    written += await store.transaction((tx) => categorizeStoredServer(tx, { id, description }));
  }
  return written;
}
