// The gateway's hybrid search: keeps tool vectors in the store in step with the catalog, and
// says "answer lexically" until they are ready or once the embedder has failed.
import {
  buildHybridIndex,
  embeddableToolText,
  withQueryCache,
  type Embedder,
  type HybridIndex,
  type SearchDoc,
} from '../search/index.js';
import type { Store, ToolRow } from '../store/index.js';
import type { Logger } from '../upstream/index.js';

/** How `searchToolsAsync` ranks: lexical (the default) or lexical fused with embeddings. */
export const SEARCH_STRATEGIES = ['lexical', 'hybrid'] as const;
export type SearchStrategy = (typeof SEARCH_STRATEGIES)[number];

/**
 * The version of the tool-text recipe (`toolEmbeddingText`) in every cached vector's model id:
 * vectors are keyed by content hash, so a new recipe must bump this or old vectors stay in use.
 */
export const TEXT_RECIPE = 'text-v1';

/** Tools per embedder call and per cache write: progress and crash-safety granularity. */
export const EMBED_BATCH = 64;

/** Embedding progress after each batch: `done` of `total` tools that had no cached vector. */
export interface EmbedProgress {
  done: number;
  total: number;
}

/** What `carte doctor` shows for search. */
export interface SearchStatus {
  strategy: SearchStrategy;
  /** lexical: configured so; pending: not embedded yet; embedding: under way; ready; degraded: lexical after a failure. */
  state: 'lexical' | 'pending' | 'embedding' | 'ready' | 'degraded';
  /** The model id vectors are cached under (embedder id + recipe). */
  model?: string;
  /** Vectors cached for this model (for every stored tool, visible or not). */
  cachedVectors?: number;
  progress?: EmbedProgress;
  /** Why hybrid search is off (degraded). */
  reason?: string;
}

/** The search strategy and, for hybrid, the embedder (its model may load lazily on first use). */
export interface GatewaySearchOptions {
  strategy: SearchStrategy;
  /** Required by hybrid; without one, hybrid degrades to lexical with a warning. */
  embedder?: Embedder;
  /** Called after each batch of tools embedded (the CLI prints it on stderr). */
  onProgress?: (p: EmbedProgress) => void;
  /** Tools per embedder call (default EMBED_BATCH). */
  batchSize?: number;
}

/** The gateway's HybridSearch for these options, or undefined for lexical. */
export function createHybridSearch(
  search: GatewaySearchOptions,
  deps: Pick<HybridSearchOptions, 'store' | 'logger' | 'catalog'>,
): HybridSearch | undefined {
  if (search.strategy !== 'hybrid') return undefined;
  const embedder = search.embedder ?? {
    id: 'none',
    dimension: 1,
    embed: () => Promise.reject(new Error('search.strategy is hybrid but no embedder was given')),
  };
  return new HybridSearch({
    ...deps,
    embedder,
    ...(search.onProgress ? { onProgress: search.onProgress } : {}),
    ...(search.batchSize ? { batchSize: search.batchSize } : {}),
  });
}

export interface HybridSearchOptions {
  embedder: Embedder;
  store: Store;
  logger: Logger;
  /** The searchable catalog now, and its version (see CatalogView). */
  catalog: { readonly version: number; snapshot(): { version: number; rows: ToolRow[]; docs: SearchDoc[] } };
  onProgress?: (p: EmbedProgress) => void;
  batchSize?: number;
}

/** Vectors for the catalog, cached by (content hash, model id); embeds only what is missing. */
export class HybridSearch {
  readonly modelId: string;
  private readonly queryEmbedder: Embedder;
  private built: { version: number; index: HybridIndex } | undefined;
  private job: Promise<void> | undefined;
  private progress: EmbedProgress | undefined;
  private degradedBy: string | undefined;
  private active = false;
  private closed = false;

  constructor(private readonly options: HybridSearchOptions) {
    this.modelId = `${options.embedder.id}+${TEXT_RECIPE}`;
    this.queryEmbedder = withQueryCache(options.embedder);
  }

  /** The hybrid index of the current catalog, or undefined: answer lexically (embedding starts if needed). */
  current(): HybridIndex | undefined {
    this.active = true;
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
    while (!this.isSettled()) await this.refresh();
  }

  /** Hybrid search is off for good (this gateway's life): logs once. */
  fail(err: unknown): void {
    if (this.degradedBy !== undefined) return;
    this.degradedBy = err instanceof Error ? err.message : String(err);
    this.built = undefined;
    this.options.logger.warn(`search: hybrid search is off, answering lexically: ${this.degradedBy}`);
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
        const { version, rows, docs } = this.options.catalog.snapshot();
        const vectors = await this.vectorsFor(rows, docs);
        if (!vectors) return; // closed
        const index = await buildHybridIndex(docs, { embedder: this.queryEmbedder, vectors });
        this.built = { version, index };
      }
      if (!this.closed && this.degradedBy === undefined) this.prune();
    } catch (err) {
      if (!this.closed) this.fail(err);
    }
  }

  /** One vector (or none: CJK-only text) per row; embeds and caches the missing ones batch by batch. */
  private async vectorsFor(
    rows: readonly ToolRow[],
    docs: readonly SearchDoc[],
  ): Promise<(Float32Array | undefined)[] | undefined> {
    const { store, embedder, onProgress } = this.options;
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
      const got = await embedder.embed(slice.map(([, text]) => text));
      if (this.closed) return undefined;
      if (got.length !== slice.length) {
        throw new Error(
          `the embedder "${embedder.id}" returned ${got.length} vectors for ${slice.length} texts`,
        );
      }
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
