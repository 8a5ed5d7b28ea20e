// The gateway's search: the lexical ranking, fused with embeddings (hybrid, local or remote model)
// and reordered by a remote reranker, each step reporting whether it was used or why not.
import {
  clampLimit,
  rerankWithFallback,
  withFallback,
  type RemoteMeta,
  type Reranker,
  type SearchHit,
  type SearchOptions,
} from '../search/index.js';
import type { Store, ToolSearchRow } from '../store/index.js';
import type { Logger } from '../upstream/index.js';
import type { CatalogView } from './catalog-view.js';
import { createHybridSearch, type HybridSearch } from './hybrid-search.js';
import {
  REMOTE_SEARCH_DEFAULTS,
  type GatewaySearchOptions,
  type SearchMeta,
  type SearchStatus,
} from './search-options.js';
import { throttledWarn } from './throttled-warn.js';

/** Characters of a tool's text a reranker reads (rerankers bill and truncate by tokens). */
export const MAX_RERANK_CHARS = 1000;

/** What the reranker reads for a tool: its key, title and description on one line. */
export function rerankText(t: Pick<ToolSearchRow, 'key' | 'title' | 'description'>): string {
  const head = t.title ? `${t.key} (${t.title})` : t.key;
  const description = t.description?.replace(/\s+/g, ' ').trim();
  return (description ? `${head}: ${description}` : head).slice(0, MAX_RERANK_CHARS);
}

/** The one query of a search, or undefined for a multi-step search (its merged ranking keeps each step's slots). */
function singleQuery(text: string | string[]): string | undefined {
  if (typeof text === 'string') return text;
  const steps = text.filter((q) => q.trim() !== '');
  return steps.length === 1 ? steps[0] : undefined;
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

  /** The lexical ranking, synchronous. */
  lexical(text: string | string[], options: SearchOptions): SearchHit[] {
    return this.deps.catalog.searchIndex().search(text, options);
  }

  /** The configured ranking and how it was reached; never fails because of an embedder or a provider. */
  async search(
    text: string | string[],
    options: SearchOptions,
  ): Promise<{ hits: SearchHit[]; meta: SearchMeta }> {
    const steps: RemoteMeta[] = [];
    const query = this.reranker && singleQuery(text);
    if (!this.reranker || query === undefined) {
      const hits = await this.localHits(text, options, steps);
      return { hits, meta: this.meta(steps) };
    }
    // Rank deep enough for the reranker to see topN hits, then cut back to the limit asked for.
    const limit = clampLimit(options.limit);
    const topN = this.options.remote?.topN ?? REMOTE_SEARCH_DEFAULTS.topN;
    const local = await this.localHits(text, { ...options, limit: Math.max(limit, topN) }, steps);
    const reranked = await rerankWithFallback(query, local, {
      reranker: this.reranker,
      textOf: (key) => {
        const row = this.deps.catalog.row(key); // gone only if the catalog changed meanwhile
        return row ? rerankText(row) : key;
      },
      topN,
      timeoutMs: this.timeoutMs,
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

  status(): SearchStatus {
    const { strategy } = this.options;
    const base: SearchStatus = this.hybrid?.status() ?? { strategy, state: 'lexical' };
    return { ...base, strategy, ...(this.reranker ? { rerank: this.reranker.id } : {}) };
  }

  catalogChanged(): void {
    this.hybrid?.catalogChanged();
  }

  async close(): Promise<void> {
    await this.hybrid?.close();
  }

  private get timeoutMs(): number {
    return this.options.remote?.timeoutMs ?? REMOTE_SEARCH_DEFAULTS.timeoutMs;
  }

  private meta(steps: RemoteMeta[]): SearchMeta {
    return { strategy: this.options.strategy, fallback: steps.some((s) => s.fallback), steps };
  }

  /** Lexical, or fused with embeddings when they are ready; a failing embedder means lexical. */
  private async localHits(
    text: string | string[],
    options: SearchOptions,
    steps: RemoteMeta[],
  ): Promise<SearchHit[]> {
    const { hybrid } = this;
    if (!hybrid) return this.lexical(text, options);
    const provider = hybrid.embedderId;
    const index = hybrid.current();
    if (!index) {
      steps.push({ provider, fallback: true, reason: hybrid.whyLexical() });
      return this.lexical(text, options);
    }
    if (this.options.strategy === 'remote') {
      // A remote failure is one query's: that query is lexical, the next one tries again. The
      // lexical ranking is computed only on fallback, not on every search.
      const remote = (): Promise<SearchHit[] | undefined> => index.search(text, options);
      const r = await withFallback(remote, undefined, {
        provider,
        timeoutMs: this.timeoutMs,
        onFallback: (reason) => this.warn(`search: ${reason}; answering lexically`),
      });
      steps.push(r.meta);
      return r.value ?? this.lexical(text, options);
    }
    try {
      const hits = await index.search(text, options);
      steps.push({ provider, fallback: false });
      return hits;
    } catch (err) {
      hybrid.fail(err); // a local model that failed once stays off
      steps.push({ provider, fallback: true, reason: hybrid.whyLexical() });
      return this.lexical(text, options);
    }
  }
}
