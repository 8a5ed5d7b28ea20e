import { buildSearchIndex, type SearchDoc, type SearchIndex } from '../search/index.js';
import type { Store, ToolRow } from '../store/index.js';

/** Top-level property names of an input schema, for the search index. */
function paramNames(schema: unknown): string[] {
  const props = (schema as { properties?: unknown } | undefined)?.properties;
  return props && typeof props === 'object' ? Object.keys(props) : [];
}

/** A tool row as a search document. */
export function toSearchDoc(t: ToolRow, serverDescription?: string): SearchDoc {
  return {
    key: t.key,
    server: t.serverId,
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    ...(t.description ? { description: t.description } : {}),
    paramNames: paramNames(t.inputSchema),
    ...(serverDescription ? { serverDescription } : {}),
  };
}

/**
 * The searchable view of the stored catalog. It is rebuilt lazily after a change, so a burst of
 * syncs costs one rebuild, and reads never start an upstream.
 */
export class CatalogView {
  private index: SearchIndex | null = null;
  private rows = new Map<string, ToolRow>();
  private docs: SearchDoc[] = [];
  private builtVersion = -1;
  /** Goes up on every change, so derived state (the hybrid index) knows when it is stale. */
  version = 0;

  constructor(
    private readonly store: Store,
    private readonly visibleServers: () => ReadonlySet<string>,
    private readonly serverDescriptions: () => ReadonlyMap<string, string>,
  ) {}

  invalidate(): void {
    this.index = null;
    this.version++;
  }

  /** The searchable tools of the current catalog: rows and their search docs, in the same order. */
  snapshot(): { version: number; rows: ToolRow[]; docs: SearchDoc[] } {
    this.searchIndex();
    return { version: this.builtVersion, rows: [...this.rows.values()], docs: this.docs };
  }

  searchIndex(): SearchIndex {
    if (!this.index) {
      const visible = this.visibleServers();
      const descriptions = this.serverDescriptions();
      const rows = this.store.tools.listAll().filter((t) => visible.has(t.serverId));
      this.rows = new Map(rows.map((t) => [t.key, t]));
      this.docs = rows.map((t) => toSearchDoc(t, descriptions.get(t.serverId)));
      this.index = buildSearchIndex(this.docs);
      this.builtVersion = this.version;
    }
    return this.index;
  }

  row(key: string): ToolRow | undefined {
    this.searchIndex();
    return this.rows.get(key);
  }
}
