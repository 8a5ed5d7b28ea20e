import type { LexicalIndex, LexicalState, SearchDoc } from '../search/index.js';
import type { Store, ToolSearchRow } from '../store/index.js';
import { buildIndexWithSnapshot } from './index-snapshot.js';

/** A tool's search columns as a search document. */
export function toSearchDoc(t: ToolSearchRow, serverDescription?: string): SearchDoc {
  return {
    key: t.key,
    server: t.serverId,
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    ...(t.description ? { description: t.description } : {}),
    paramNames: t.paramNames,
    ...(serverDescription ? { serverDescription } : {}),
  };
}

/**
 * The searchable view of the stored catalog. It is rebuilt lazily after a change, so a burst of
 * syncs costs one rebuild, and reads never start an upstream.
 */
export class CatalogView {
  private index: LexicalIndex | null = null;
  private rows = new Map<string, ToolSearchRow>();
  private docs: SearchDoc[] = [];
  private builtVersion = -1;
  /** Goes up on every change, so derived state (the hybrid index) knows when it is stale. */
  version = 0;

  constructor(
    private readonly store: Store,
    /** Whether a tool belongs in the index (the policy's verdict, taken once per rebuild). */
    private readonly listedFilter: () => (key: string) => boolean,
    private readonly serverDescriptions: () => ReadonlyMap<string, string>,
    private readonly log: { debug(message: string): void; warn(message: string): void },
  ) {}

  invalidate(): void {
    this.index = null;
    this.version++;
  }

  /**
   * The searchable tools of the current catalog: rows and their search docs, in the same order,
   * and the lexical analysis of those docs (so the hybrid index need not analyse them again).
   */
  snapshot(): { version: number; rows: ToolSearchRow[]; docs: SearchDoc[]; lexicalState: LexicalState } {
    const { lexicalState } = this.searchIndex();
    return { version: this.builtVersion, rows: [...this.rows.values()], docs: this.docs, lexicalState };
  }

  searchIndex(): LexicalIndex {
    if (!this.index) {
      const listed = this.listedFilter();
      const descriptions = this.serverDescriptions();
      const rows = this.store.tools.listForSearch().filter((t) => listed(t.key));
      this.rows = new Map(rows.map((t) => [t.key, t]));
      this.docs = rows.map((t) => toSearchDoc(t, descriptions.get(t.serverId)));
      const started = performance.now();
      const { index, from } = buildIndexWithSnapshot(this.docs, {
        snapshots: this.store.snapshots,
        warn: (message) => this.log.warn(message),
      });
      this.index = index;
      const how = { snapshot: 'read from its snapshot', build: 'built, snapshot stored', small: 'built' };
      this.log.debug(
        `search index: ${this.docs.length} tools, ${how[from]} in ${Math.round(performance.now() - started)} ms`,
      );
      this.builtVersion = this.version;
    }
    return this.index;
  }

  row(key: string): ToolSearchRow | undefined {
    this.searchIndex();
    return this.rows.get(key);
  }
}
