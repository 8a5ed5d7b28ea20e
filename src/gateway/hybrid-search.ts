// The gateway's hybrid search: keeps tool vectors in the store in step with the catalog, and
// says "answer lexically" until they are ready or once the embedder has failed.
import {
  buildHybridIndex,
  embedAll,
  embeddableToolText,
  withQueryCache,
  type Embedder,
  type HybridIndex,
  type LexicalState,
  type SearchDoc,
} from '../search/index.js';
import type { Store, ToolSearchRow } from '../store/index.js';
import type { Logger } from '../upstream/index.js';
import {
  REMOTE_SEARCH_DEFAULTS,
  type EmbedProgress,
  type GatewaySearchOptions,
  type SearchStatus,
} from './search-options.js';

/**
 * The version of the tool-text recipe (`toolEmbeddingText`) in every cached vector's model id:
 * vectors are keyed by content hash, so a new recipe must bump this or old vectors stay in use.
 */
export const TEXT_RECIPE = 'text-v1';

/** Tools per embedder call and per cache write: progress and crash-safety granularity. */
export const EMBED_BATCH = 64;

/** The gateway's HybridSearch for these options, or undefined when no embedder takes part. */
export function createHybridSearch(
  search: GatewaySearchOptions,
  deps: Pick<HybridSearchOptions, 'store' | 'logger' | 'catalog'>,
): HybridSearch | undefined {
  const common = {
    ...deps,
    ...(search.onProgress ? { onProgress: search.onProgress } : {}),
    ...(search.batchSize ? { batchSize: search.batchSize } : {}),
  };
  if (search.strategy === 'remote') {
    if (!search.embedder) return undefined; // rerank only
    const { queryEmbedder, retryMs = REMOTE_SEARCH_DEFAULTS.retryMs } = search.remote ?? {};
    return new HybridSearch({
      ...common,
      embedder: search.embedder,
      ...(queryEmbedder ? { queryEmbedder } : {}),
      retryMs,
    });
  }
  if (search.strategy !== 'hybrid') return undefined;
  const embedder = search.embedder ?? {
    id: 'none',
    dimension: 1,
    embed: () => Promise.reject(new Error('search.strategy is hybrid but no embedder was given')),
  };
  return new HybridSearch({ ...common, embedder });
}

export interface HybridSearchOptions {
  embedder: Embedder;
  store: Store;
  logger: Logger;
  /** The searchable catalog now, and its version (see CatalogView). */
  catalog: {
    readonly version: number;
    snapshot(): { version: number; rows: ToolSearchRow[]; docs: SearchDoc[]; lexicalState?: LexicalState };
  };
  onProgress?: (p: EmbedProgress) => void;
  batchSize?: number;
  /** Embeds queries (default: `embedder`); a remote one gets the query deadline as its timeout. */
  queryEmbedder?: Embedder;
  /** After a failure, try again this long later (remote); absent: off until the process restarts. */
  retryMs?: number;
}

/** Vectors for the catalog, cached by (content hash, model id); embeds only what is missing. */
export class HybridSearch {
  readonly modelId: string;
  private readonly queryEmbedder: Embedder;
  private built: { version: number; index: HybridIndex } | undefined;
  private job: Promise<void> | undefined;
  private progress: EmbedProgress | undefined;
  private degradedBy: string | undefined;
  private degradedAt = 0;
  private active = false;
  private closed = false;

  constructor(private readonly options: HybridSearchOptions) {
    this.modelId = `${options.embedder.id}+${TEXT_RECIPE}`;
    this.queryEmbedder = withQueryCache(options.queryEmbedder ?? options.embedder);
  }

  /** The embedder's id, the provider named in search metadata. */
  get embedderId(): string {
    return this.options.embedder.id;
  }

  /** The hybrid index of the current catalog, or undefined: answer lexically (embedding starts if needed). */
  current(): HybridIndex | undefined {
    this.active = true;
    this.retryIfDue();
    if (this.degradedBy !== undefined || this.closed) return undefined;
    if (this.built?.version === this.options.catalog.version) return this.built.index;
    void this.refresh();
    return undefined;
  }

  /** After a catalog change: embed the new tools now if search has been used (one-shot commands never load the model). */
  catalogChanged(): void {
    if (this.active) void this.refresh();
  }

  /** Resolves when the current catalog is embedded, or embedding failed (degraded), or the gateway closes. */
  async ready(): Promise<void> {
    this.active = true;
    this.retryIfDue();
    while (!this.isSettled()) await this.refresh();
  }

  /** Hybrid search is off for good (this gateway's life) or until `retryMs` has passed: logs once. */
  fail(err: unknown): void {
    if (this.degradedBy !== undefined) return;
    this.degradedBy = err instanceof Error ? err.message : String(err);
    this.degradedAt = Date.now();
    this.built = undefined;
    const { retryMs } = this.options;
    const retry = retryMs === undefined ? '' : ` (trying again in ${Math.ceil(retryMs / 1000)} s)`;
    this.options.logger.warn(`search: hybrid search is off${retry}, answering lexically: ${this.degradedBy}`);
  }

  /** Why current() answered undefined, as the reason of a fallback. */
  whyLexical(): string {
    if (this.degradedBy !== undefined) return `hybrid search is off: ${this.degradedBy}`;
    return `the tool vectors of "${this.embedderId}" are not ready yet`;
  }

  status(): SearchStatus {
    const model = this.modelId;
    const base = {
      strategy: 'hybrid' as const,
      model,
      cachedVectors: this.options.store.vectors.count(model),
    };
    if (this.degradedBy !== undefined) return { ...base, state: 'degraded', reason: this.degradedBy };
    if (this.built?.version === this.options.catalog.version) return { ...base, state: 'ready' };
    if (this.job)
      return { ...base, state: 'embedding', ...(this.progress ? { progress: this.progress } : {}) };
    return { ...base, state: 'pending' };
  }

  /** Stops after the batch in flight (nothing is written after this resolves). */
  async close(): Promise<void> {
    this.closed = true;
    await this.job;
  }

  private retryIfDue(): void {
    const { retryMs } = this.options;
    if (this.degradedBy === undefined || retryMs === undefined) return;
    if (Date.now() - this.degradedAt >= retryMs) this.degradedBy = undefined;
  }

  private isSettled(): boolean {
    return (
      this.closed || this.degradedBy !== undefined || this.built?.version === this.options.catalog.version
    );
  }

  private refresh(): Promise<void> {
    this.job ??= this.run().finally(() => {
      this.job = undefined;
      this.progress = undefined;
      if (this.active && !this.isSettled()) void this.refresh(); // a change landed as the job ended
    });
    return this.job;
  }

  private async run(): Promise<void> {
    // Leave the caller's stack first: a catalog change may be announced inside a sync, and
    // embedding must never run inside a DB transaction. This also coalesces a burst of changes.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (!this.isSettled()) {
        const { version, rows, docs, lexicalState } = this.options.catalog.snapshot();
        const vectors = await this.vectorsFor(rows, docs);
        if (!vectors) return; // closed
        const index = await buildHybridIndex(docs, { embedder: this.queryEmbedder, vectors, lexicalState });
        this.built = { version, index };
      }
      if (!this.closed && this.degradedBy === undefined) this.prune();
    } catch (err) {
      if (!this.closed) this.fail(err);
    }
  }

  /** One vector (or none: CJK-only text) per row; embeds and caches the missing ones batch by batch. */
  private async vectorsFor(
    rows: readonly Pick<ToolSearchRow, 'contentHash'>[],
    docs: readonly SearchDoc[],
  ): Promise<(Float32Array | undefined)[] | undefined> {
    const { store, embedder, onProgress } = this.options;
    // A remote model without a configured dimension learns it from its first answer.
    if (embedder.dimension === 0) await embedder.embed(['dimension probe']);
    if (this.closed) return undefined;
    const { dimension } = embedder;
    const cached = store.vectors.getMany(
      rows.map((r) => r.contentHash),
      this.modelId,
      dimension,
    );
    const missing = new Map<string, string>(); // content hash -> text; equal hashes embed once
    rows.forEach((r, i) => {
      const text = cached.has(r.contentHash) ? undefined : embeddableToolText(docs[i]!);
      if (text !== undefined) missing.set(r.contentHash, text);
    });
    const todo = [...missing];
    const batch = this.options.batchSize ?? EMBED_BATCH;
    for (let i = 0; i < todo.length; i += batch) {
      const slice = todo.slice(i, i + batch);
      const got = await embedAll(
        embedder,
        slice.map(([, text]) => text),
      );
      if (this.closed) return undefined;
      const written = slice.map(([hash], j) => ({ hash, vector: got[j]! }));
      store.vectors.putMany(written, this.modelId, dimension);
      for (const { hash, vector } of written) cached.set(hash, vector);
      this.progress = { done: i + slice.length, total: todo.length };
      onProgress?.(this.progress);
    }
    return rows.map((r) => cached.get(r.contentHash));
  }

  /** Drops this model's vectors of tools no longer stored (kept for disabled servers' tools). */
  private prune(): void {
    const { store } = this.options;
    store.vectors.prune(store.tools.listContentHashes(), this.modelId);
  }
}
