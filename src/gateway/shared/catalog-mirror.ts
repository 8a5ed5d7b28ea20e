// What the gateway's synchronous paths read of the store, held in memory: the servers' discovery
// rows, every tool's search columns, the stored categories and the live quarantine. Loaded at
// start and again after every catalog change (the search index is built from it), so no search,
// listing or visibility decision waits on the database (issue 26: the store may be PostgreSQL).
import { quarantinedKeys } from '../../catalog/index.js';
import type { ServerRow, Store, StoredCategory, ToolSearchRow } from '../../store/index.js';

/**
 * On a shared store, a server read as `discovering` is read again this long after (ms), then
 * twice as long each time up to DISCOVERING_RECHECK_MAX_MS: a discovery that ends finding what
 * the last one found sends no notification (store/pg), so its end is seen this way (issue 26:
 * within about 1 s), and a row left `discovering` by a replica that died costs little.
 */
export const DISCOVERING_RECHECK_MS = 500;
export const DISCOVERING_RECHECK_MAX_MS = 30_000;

export class CatalogMirror {
  servers: ReadonlyMap<string, ServerRow> = new Map();
  /** Every stored tool's search columns, ordered by key. */
  tools: readonly ToolSearchRow[] = [];
  categories: ReadonlyMap<string, StoredCategory> = new Map();
  /** Quarantined tools of the catalog, with why. */
  quarantined: ReadonlyMap<string, string> = new Map();
  /** The store's trust signature when the quarantine was read (another process's change moves it). */
  private trustSignature: string | undefined;
  private readonly reload = coalesced(() => this.readAll());
  private readonly recheck: { timer?: NodeJS.Timeout; waitMs: number; closed: boolean } = {
    waitMs: DISCOVERING_RECHECK_MS,
    closed: false,
  };

  constructor(private readonly store: Store) {}

  /** The store announces other processes' changes (Store.subscribe): no per-request check is needed. */
  get announced(): boolean {
    return this.store.engine === 'postgres';
  }

  /** Reads everything again; calls made during a read share the next one, which starts after it. */
  load(): Promise<void> {
    return this.reload();
  }

  /** The server's stored row, from memory. */
  server(id: string): ServerRow | undefined {
    return this.servers.get(id);
  }

  /**
   * True when the quarantine or an upstream sign-in changed in the store behind this gateway
   * (another process approved or held a tool, or signed in or out) since it was read; reads the
   * signatures only.
   */
  async trustMoved(): Promise<boolean> {
    const now = await this.signature();
    return this.trustSignature !== undefined && now !== this.trustSignature;
  }

  private async signature(): Promise<string> {
    return `${await this.store.trust.signature()}|${await this.store.upstreamAuth.signature()}`;
  }

  /** The servers' rows only (a status change without a catalog change: discovery started or failed). */
  async loadServers(): Promise<void> {
    this.servers = new Map((await this.store.servers.list()).map((r) => [r.id, r]));
    this.recheckDiscovering();
  }

  /** Stops reading the servers again (the gateway closes). */
  close(): void {
    this.recheck.closed = true;
    clearTimeout(this.recheck.timer);
  }

  /** While a row says `discovering` on a shared store, reads the rows again later (DISCOVERING_RECHECK_MS). */
  private recheckDiscovering(): void {
    const r = this.recheck;
    if (!this.announced || r.closed || r.timer !== undefined) return;
    if (![...this.servers.values()].some((row) => row.status === 'discovering')) {
      r.waitMs = DISCOVERING_RECHECK_MS;
      return;
    }
    r.timer = setTimeout(() => {
      r.timer = undefined;
      r.waitMs = Math.min(r.waitMs * 2, DISCOVERING_RECHECK_MAX_MS);
      // A failed read (the database away, the store closing) waits for the next change or load.
      this.loadServers().catch(() => undefined);
    }, r.waitMs);
    r.timer.unref();
  }

  private async readAll(): Promise<void> {
    const signature = await this.signature();
    const [servers, tools, categories, quarantined] = await Promise.all([
      this.store.servers.list(),
      this.store.tools.listForSearch(),
      this.store.tools.listCategories(),
      quarantinedKeys(this.store),
    ]);
    this.servers = new Map(servers.map((r) => [r.id, r]));
    this.tools = tools;
    this.categories = categories;
    this.quarantined = quarantined;
    this.trustSignature = signature;
    this.recheck.waitMs = DISCOVERING_RECHECK_MS;
    this.recheckDiscovering();
  }
}

/**
 * `task` run at most once at a time: a call while it runs gets the run that starts after it (so
 * what it asks for is seen), and calls during that wait share it.
 */
export function coalesced(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const run = task().finally(() => {
      if (running === run) running = undefined;
    });
    running = run;
    return run;
  };
  return () => {
    if (!running) return start();
    if (!next) {
      const after = () => {
        next = undefined;
        return start();
      };
      next = running.then(after, after);
    }
    return next;
  };
}
