// The gateway's search methods (Gateway delegates to them): audited, scoped to the caller's
// project, its index and its strategy, the project's usage prior applied, results fitted to a token budget.
import { applyUsagePrior, type SearchHit } from '../../search/index.js';
import type { AuditLog } from '../trust/audit.js';
import { audited } from '../trust/audited.js';
import type { CatalogView } from './catalog-view.js';
import type { CallerContext } from '../access/context.js';
import type { HotList } from '../menu/hot-list.js';
import { lookupServer } from '../calls/lookups.js';
import { fitResults } from '../menu/menu-budget.js';
import type { Policies } from '../trust/policies.js';
import { requireScope } from '../access/scopes.js';
import { planSearch, toResults, type SearchRequest } from './search-plan.js';
import type { SearchStrategies } from './search-strategies.js';
import type { SearchOutcome, SearchResult } from '../shared/types.js';

export interface GatewaySearchParts {
  audit: AuditLog;
  policies: Policies;
  view: CatalogView;
  /** The top-level search and each project's own (issue 29, item 3). */
  searches: SearchStrategies;
  hotList: HotList;
}

export class GatewaySearch {
  constructor(private readonly parts: GatewaySearchParts) {}

  /** Lexical search, synchronous whatever the strategy. */
  searchTools(ctx: CallerContext, query: string | string[], req: SearchRequest = {}): SearchResult[] {
    const { audit, searches } = this.parts;
    return audited(audit, ctx, { kind: 'search', detail: JSON.stringify(query) }, () => {
      const { text, options, call } = this.plan(ctx, query, req);
      return this.results(ctx, searches.main.lexical(text, options, call), text);
    });
  }

  /** Search with the configured strategy, and how it was answered (see Gateway.searchToolsWithMeta). */
  async searchToolsWithMeta(
    ctx: CallerContext,
    query: string | string[],
    req: SearchRequest = {},
  ): Promise<SearchOutcome> {
    const { audit, searches } = this.parts;
    return audited(audit, ctx, { kind: 'search', detail: JSON.stringify(query) }, async () => {
      const { policies, hotList, view } = this.parts;
      await policies.noticeExternalChange();
      const project = policies.project(ctx).id;
      await hotList.refresh(project);
      await view.prepare(); // the index, from its stored snapshot when one matches
      const { text, options, call } = this.plan(ctx, query, req);
      const { hits, meta } = await searches.of(project).search(text, options, { ...req, ...call });
      const results = this.results(ctx, hits, text);
      if (req.maxTokens === undefined) return { results, meta };
      return { ...(await fitResults(results, req.maxTokens)), meta };
    });
  }

  private plan(ctx: CallerContext, query: string | string[], req: SearchRequest) {
    const { policies, view } = this.parts;
    requireScope(ctx, 'search', 'search_tools');
    const plan = planSearch(query, req);
    if (plan.options.server !== undefined) lookupServer(policies.servers(ctx), plan.options.server);
    const policy = policies.forCaller(ctx);
    // The caller's index holds only what its policy lists, so lexical searches need no filter by key
    // (checking each candidate of each query cost more than the ranking: issue 28). `listed` is for
    // the hybrid index, which holds the whole catalog.
    const call = { index: view.searchIndexFor(policy), listed: (key: string) => policy.isListed(key) };
    return { ...plan, call };
  }

  /**
   * The hits with the project's usage prior applied, as results. A query of filters only is a
   * listing by server and name, cut at the limit before the prior could see the rest: no prior.
   */
  private results(ctx: CallerContext, hits: readonly SearchHit[], text: string | string[]): SearchResult[] {
    const { policies, view, hotList } = this.parts;
    const listing = (typeof text === 'string' ? [text] : text).every((q) => q.trim() === '');
    const ranked = listing ? hits : applyUsagePrior(hits, hotList.usage(policies.project(ctx).id));
    return toResults(ranked, (key) => view.row(key));
  }
}
