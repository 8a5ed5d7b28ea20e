// The gateway's hybrid search: keeps tool vectors in the store in step with the catalog, loads the
// model in the background, and says "answer lexically" until both are ready or while the embedder
// is failing (it tries again with backoff: hybrid-health.ts).
import {
  buildHybridIndex,
  embedAll,
  withQueryCache,
  type Embedder,
  type HybridIndex,
  type LexicalState,
  type SearchDoc,
} from '../../search/index.js';
import type { Store, ToolSearchRow } from '../../store/index.js';
import type { Logger } from '../../upstream/index.js';
import { HYBRID_RETRY, HybridHealth, type RetryPolicy } from './hybrid-health.js';
import { catalogVectors } from './hybrid-vectors.js';
import {
  REMOTE_SEARCH_DEFAULTS,
  type EmbedProgress,
  type EmbeddingsState,
  type GatewaySearchOptions,
  type SearchStatus,
} from '../shared/search-options.js';

/**
 * The version of the tool-text recipe (`toolEmbeddingText`) in every cached vector's model id:
 * vectors are keyed by content hash, so a new recipe must bump this or old vectors stay in use.
 */
export const TEXT_RECIPE = 'text-v1';

/** Tools per embedder call and per cache write: progress and crash-safety granularity. */
export const EMBED_BATCH = 64;

/** What an attempt after a failure embeds to check the model answers again. */
export const PROBE_TEXT = 'probe';

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
      retry: { baseMs: retryMs, capMs: retryMs }, // a fixed interval, as configured
    });
  }
  if (search.strategy !== 'hybrid') return undefined;
  const embedder = search.embedder ?? {
    id: 'none',
    dimension: 1,
    embed: () => Promise.reject(new Error('search.strategy is hybrid but no embedder was given')),
  };
  return new HybridSearch({ ...common, embedder, retry: search.retry ?? HYBRID_RETRY, local: true });
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
  /** When to try again after a failure. */
  retry: RetryPolicy;
  /** A local model (hybrid): its state shows in each search's metadata. */
  local?: boolean;
}

/** Vectors for the catalog, cached by (content hash, model id); embeds only what is missing. */
export class HybridSearch {
  readonly modelId: string;
  private readonly queryEmbedder: Embedder;
  private built: { version: number; index: HybridIndex } | undefined;
  private job: Promise<void> | undefined;
  private progress: EmbedProgress | undefined;
  private readonly health: HybridHealth;
  /** The model answers: warmed up (or nothing to warm) and no failure since. */
  private modelOk: boolean;
  private active = false;
  private closed = false;
  /** Distinct vectors the last build used: more in the store means some may be stale. */
  private heldVectors = 0;

  constructor(private readonly options: HybridSearchOptions) {
    this.modelId = `${options.embedder.id}+${TEXT_RECIPE}`;
    this.queryEmbedder = withQueryCache(options.queryEmbedder ?? options.embedder);
    this.health = new HybridHealth(options.retry);
    this.modelOk = options.embedder.warmUp === undefined;
  }

  /** A local model (hybrid): each search's metadata carries its state; a remote one's steps say it. */
  get local(): boolean {
    return this.options.local === true;
  }

  /** The embedder's id, the provider named in search metadata. */
  get embedderId(): string {
    return this.options.embedder.id;
  }

  /** The hybrid index of the current catalog, or undefined: answer lexically (embedding starts if needed). */
  current(): HybridIndex | undefined {
    this.active = true;
    this.retryIfDue();
    if (this.closed || this.health.state === 'degraded') return undefined;
    if (this.isReady()) return this.built!.index;
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

  /**
   * Hybrid search is off until the next attempt (backoff: hybrid-health.ts). The first failure
   * since the embeddings last worked is a warning; the ones after it, while retrying, are debug.
   * A failure while already degraded (a query that was in flight) changes nothing.
   */
  fail(err: unknown): void {
    if (this.health.state === 'degraded') return;
    const first = this.health.state === 'ok';
    const reason = err instanceof Error ? err.message : String(err);
    const wait = this.health.fail(reason);
    this.modelOk = false;
    const again = `trying again in ${Math.ceil(wait / 1000)} s`;
    if (first)
      this.options.logger.warn(`search: hybrid search is off (${again}), answering lexically: ${reason}`);
    else
      this.options.logger.debug(
        `search: hybrid search failed again (${this.health.report().failures} failures, ${again}): ${reason}`,
      );
  }

  /** Why current() answered undefined, as the reason of a fallback. */
  whyLexical(): string {
    const { state, reason } = this.health.report();
    if (state === 'degraded') return `hybrid search is off: ${reason ?? ''}`;
    if (state === 'retrying') return `hybrid search is trying again after: ${reason ?? ''}`;
    if (!this.modelOk) return `the model "${this.embedderId}" is loading`;
    return `the tool vectors of "${this.embedderId}" are not ready yet`;
  }

  /** The state without the store's count: cheap enough for every search's metadata. */
  state(): EmbeddingsState {
    const { state, failures, retryInMs } = this.health.report();
    if (state !== 'ok') return { state, failures, ...(retryInMs === undefined ? {} : { retryInMs }) };
    if (this.isReady()) return { state: 'ready' };
    if (!this.job) return { state: 'pending' };
    return { state: this.progress || this.modelOk ? 'embedding' : 'loading' };
  }

  async status(): Promise<SearchStatus> {
    const model = this.modelId;
    const { reason } = this.health.report();
    return {
      strategy: 'hybrid' as const,
      model,
      cachedVectors: await this.options.store.vectors.count(model),
      ...this.state(),
      ...(reason === undefined ? {} : { reason }),
      ...(this.job && this.progress ? { progress: this.progress } : {}),
    };
  }

  /** Stops after the batch in flight (nothing is written after this resolves). */
  async close(): Promise<void> {
    this.closed = true;
    await this.job;
  }

  /** Retries are driven by use: a search, prepareSearch or doctor past the wait starts the attempt. */
  private retryIfDue(): void {
    if (!this.closed && this.health.beginIfDue()) void this.refresh();
  }

  private isReady(): boolean {
    return this.health.state === 'ok' && this.modelOk && this.built?.version === this.options.catalog.version;
  }

  private isSettled(): boolean {
    return this.closed || this.health.state === 'degraded' || this.isReady();
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
    if (this.isSettled()) return;
    try {
      // The model loads while the vectors are read: its file reads and WASM compile are async.
      const model = this.checkModel();
      model.catch(() => undefined); // awaited below; a read that throws first must not leave it unhandled
      while (!this.closed && this.built?.version !== this.options.catalog.version) {
        const { version, rows, docs, lexicalState } = this.options.catalog.snapshot();
        const vectors = await this.vectorsFor(rows, docs);
        if (!vectors) return; // closed
        const index = await buildHybridIndex(docs, { embedder: this.queryEmbedder, vectors, lexicalState });
        this.built = { version, index };
      }
      await model;
      if (this.closed || this.health.state === 'degraded') return; // a query failed meanwhile
      const failures = this.health.succeed();
      if (failures > 0)
        this.options.logger.info(`search: hybrid search works again after ${failures} failures`);
      await this.prune();
    } catch (err) {
      if (!this.closed) this.fail(err);
    }
  }

  /**
   * First time: the embedder's warm-up (a lazy local model loads and compiles; others have none).
   * After a failure: one probe embedding, so an attempt proves the model answers before it is used.
   */
  private async checkModel(): Promise<void> {
    if (this.modelOk) return;
    const { embedder } = this.options;
    if (this.health.state === 'ok') await embedder.warmUp?.();
    else await embedAll(embedder, [PROBE_TEXT], 'probe texts');
    this.modelOk = true;
  }

  /** The catalog's vectors from the store, embedding the missing ones; undefined once closed. */
  private async vectorsFor(
    rows: readonly Pick<ToolSearchRow, 'contentHash'>[],
    docs: readonly SearchDoc[],
  ): Promise<(Float32Array | undefined)[] | undefined> {
    const { store, embedder, onProgress, batchSize } = this.options;
    const got = await catalogVectors(rows, docs, {
      store,
      embedder,
      modelId: this.modelId,
      batchSize: batchSize ?? EMBED_BATCH,
      isClosed: () => this.closed,
      onProgress: (p) => {
        this.progress = p;
        onProgress?.(p);
      },
    });
    if (!got) return undefined;
    this.heldVectors = got.held;
    return got.vectors;
  }

  /**
   * Drops this model's vectors of tools no longer stored (kept for disabled servers' tools). When
   * the store holds no more vectors than the catalog uses, none is stale: skipped (a count, not the
   * 84 ms DELETE ... NOT IN of 7k hashes on every start).
   */
  private async prune(): Promise<void> {
    const { store } = this.options;
    if ((await store.vectors.count(this.modelId)) <= this.heldVectors) return;
    await store.vectors.prune(await store.tools.listContentHashes(), this.modelId);
  }
}
