// The gateway's search: the lexical ranking, fused with embeddings (hybrid, local or remote model)
// and reordered by a remote reranker, each step reporting whether it was used or why not.
import {
  clampLimit,
  createLlmReranker,
  rerankWithFallback,
  type Complete,
  withFallback,
  type RemoteMeta,
  type Reranker,
  type SearchHit,
  type LexicalIndex,
  type SearchOptions,
} from '../../search/index.js';
import type { Store, ToolSearchRow } from '../../store/index.js';
import type { Logger } from '../../upstream/index.js';
import type { CatalogView } from './catalog-view.js';
import { createHybridSearch, type HybridSearch } from './hybrid-search.js';
import {
  REMOTE_SEARCH_DEFAULTS,
  type GatewaySearchOptions,
  type SearchMeta,
  type SearchStatus,
} from '../shared/search-options.js';
import { summarize } from '../menu/summary.js';
import { throttledWarn } from '../shared/throttled-warn.js';

/** Provider id of the MCP client's own model in search metadata. */
export const SAMPLING_PROVIDER = 'sampling';

/** Characters of a tool's text a reranker reads (rerankers bill and truncate by tokens). */
export const MAX_RERANK_CHARS = 1000;

/** What the reranker reads for a tool: its key, title and description on one line. */
export function rerankText(t: Pick<ToolSearchRow, 'key' | 'title' | 'description'>): string {
  const head = t.title ? `${t.key} (${t.title})` : t.key;
  const description = t.description?.replace(/\s+/g, ' ').trim();
  return (description ? `${head}: ${description}` : head).slice(0, MAX_RERANK_CHARS);
}

/** What a chat model reads for a tool after its key: its title and the first sentence of its description. */
export function llmRerankText(t: Pick<ToolSearchRow, 'title' | 'description'>): string {
  return [t.title, summarize(t.description)].filter(Boolean).join(' — ');
}

/** What one search may bring besides its text: the caller's model and cancellation. */
export interface SearchCall {
  sample?: Complete | undefined;
  signal?: AbortSignal | undefined;
  /** The caller's lexical index (CatalogView.searchIndexFor); the catalog's when absent. */
  index?: LexicalIndex | undefined;
  /**
   * The caller's visibility by key, for the indexes that hold the whole catalog (the hybrid one,
   * or the catalog's lexical one when `index` is absent). The caller's own `index` holds only
   * these tools already, so its searches skip the check (a map lookup per candidate per query).
   */
  listed?: ((key: string) => boolean) | undefined;
}

/** The reranker of one search and how it reads tools. */
interface RerankPlan {
  reranker: Reranker;
  topN: number;
  timeoutMs: number;
  textOf: (row: ToolSearchRow) => string;
}

/**
 * The one query of a search, or undefined for a multi-step search (its merged ranking keeps each
 * step's slots) and for none (a query of filters only lists what they select: nothing to rerank).
 */
function singleQuery(text: string | string[]): string | undefined {
  const steps = (typeof text === 'string' ? [text] : text).filter((q) => q.trim() !== '');
  return steps.length === 1 ? steps[0] : undefined;
}

/** `options` keeping only the tools `listed` accepts, when given. */
function withListed(options: SearchOptions, listed: SearchCall['listed']): SearchOptions {
  return listed ? { ...options, allowKey: listed } : options;
}

/** Search over the catalog view with the configured strategy. */
export class ToolSearch {
  private readonly hybrid: HybridSearch | undefined;
  private readonly reranker: Reranker | undefined;
  private readonly warn: (message: string) => void;

  constructor(
    private readonly options: GatewaySearchOptions,
    private readonly deps: { store: Store; logger: Logger; catalog: CatalogView },
  ) {
    this.hybrid = createHybridSearch(options, deps);
    this.reranker = options.strategy === 'remote' ? options.remote?.reranker : undefined;
    this.warn = throttledWarn(deps.logger);
  }

  /** The lexical ranking, synchronous: over the caller's own index, else the catalog's filtered by `listed`. */
  lexical(text: string | string[], options: SearchOptions, call: SearchCall = {}): SearchHit[] {
    if (call.index) return call.index.search(text, options);
    return this.deps.catalog.searchIndex().search(text, withListed(options, call.listed));
  }

  /** The configured ranking and how it was reached; never fails because of an embedder or a provider. */
  async search(
    text: string | string[],
    options: SearchOptions,
    call: SearchCall = {},
  ): Promise<{ hits: SearchHit[]; meta: SearchMeta }> {
    const steps: RemoteMeta[] = [];
    const plan = this.rerankPlan(call.sample);
    const query = plan && singleQuery(text);
    if (!plan || query === undefined) {
      const hits = await this.localHits(text, options, steps, call);
      return { hits, meta: this.meta(steps) };
    }
    // Rank deep enough for the reranker to see topN hits, then cut back to the limit asked for.
    const limit = clampLimit(options.limit);
    const { topN } = plan;
    const local = await this.localHits(text, { ...options, limit: Math.max(limit, topN) }, steps, call);
    const reranked = await rerankWithFallback(query, local, {
      reranker: plan.reranker,
      textOf: (key) => {
        const row = this.deps.catalog.row(key); // gone only if the catalog changed meanwhile
        return row ? plan.textOf(row) : key;
      },
      topN,
      timeoutMs: plan.timeoutMs,
      signal: call.signal,
      onFallback: (reason) => this.warn(`search: ${reason}; keeping the local order`),
    });
    steps.push(reranked.meta);
    return { hits: reranked.value.slice(0, limit), meta: this.meta(steps) };
  }

  /** Embeds what the current catalog lacks (if an embedder takes part) and reports the status. */
  async prepare(): Promise<SearchStatus> {
    await this.hybrid?.ready();
    return this.status();
  }

  async status(): Promise<SearchStatus> {
    const { strategy } = this.options;
    const base: SearchStatus = (await this.hybrid?.status()) ?? { strategy, state: 'lexical' };
    const llm = this.options.rerank;
    const rerank = llm ? (llm.reranker?.id ?? SAMPLING_PROVIDER) : this.reranker?.id;
    return { ...base, strategy, ...(rerank ? { rerank } : {}) };
  }

  catalogChanged(): void {
    this.hybrid?.catalogChanged();
  }

  async close(): Promise<void> {
    await this.hybrid?.close();
  }

  /**
   * search.rerank when configured (sampling only with the caller's model: without one, silently
   * the local order), else the remote strategy's reranker.
   */
  private rerankPlan(sample: Complete | undefined): RerankPlan | undefined {
    const llm = this.options.rerank;
    if (llm) {
      const reranker =
        llm.provider === 'sampling' ? sample && createLlmReranker(SAMPLING_PROVIDER, sample) : llm.reranker;
      return reranker && { reranker, topN: llm.topN, timeoutMs: llm.timeoutMs, textOf: llmRerankText };
    }
    if (!this.reranker) return undefined;
    const topN = this.options.remote?.topN ?? REMOTE_SEARCH_DEFAULTS.topN;
    return { reranker: this.reranker, topN, timeoutMs: this.timeoutMs, textOf: rerankText };
  }

  private get timeoutMs(): number {
    return this.options.remote?.timeoutMs ?? REMOTE_SEARCH_DEFAULTS.timeoutMs;
  }

  private meta(steps: RemoteMeta[]): SearchMeta {
    const meta = { strategy: this.options.strategy, fallback: steps.some((s) => s.fallback), steps };
    return this.hybrid?.local ? { ...meta, embeddings: this.hybrid.state() } : meta;
  }

  /** Lexical, or fused with embeddings when they are ready; a failing embedder means lexical. */
  private async localHits(
    text: string | string[],
    options: SearchOptions,
    steps: RemoteMeta[],
    call: SearchCall,
  ): Promise<SearchHit[]> {
    const { hybrid } = this;
    if (!hybrid) return this.lexical(text, options, call);
    const provider = hybrid.embedderId;
    const index = hybrid.current();
    const shared = withListed(options, call.listed); // the hybrid index holds the whole catalog
    if (!index) {
      steps.push({ provider, fallback: true, reason: hybrid.whyLexical() });
      return this.lexical(text, options, call);
    }
    if (this.options.strategy === 'remote') {
      // A remote failure is one query's: that query is lexical, the next one tries again. The
      // lexical ranking is computed only on fallback, not on every search.
      const remote = (): Promise<SearchHit[] | undefined> => index.search(text, shared);
      const r = await withFallback(remote, undefined, {
        provider,
        timeoutMs: this.timeoutMs,
        onFallback: (reason) => this.warn(`search: ${reason}; answering lexically`),
      });
      steps.push(r.meta);
      return r.value ?? this.lexical(text, options, call);
    }
    try {
      const hits = await index.search(text, shared);
      steps.push({ provider, fallback: false });
      return hits;
    } catch (err) {
      hybrid.fail(err); // lexical until an attempt after the backoff works (hybrid-health.ts)
      steps.push({ provider, fallback: true, reason: hybrid.whyLexical() });
      return this.lexical(text, options, call);
    }
  }
}
