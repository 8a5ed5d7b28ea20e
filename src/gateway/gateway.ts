import { RECORD_DEFAULTS, type SyncReport } from '../catalog/index.js';
import type { SearchHit } from '../search/index.js';
import type { Store, ToolRow } from '../store/index.js';
import type { Logger } from '../upstream/index.js';
import { browse } from './menu.js';
import { fitMenu, fitPage, fitResults } from './menu-budget.js';
import { HotList, HOT_LIST_DEFAULTS, type HotListOptions } from './hot-list.js';
import { recordCall, usageRecorder, type UsageRecorder } from './usage.js';
import { fitToolDetail, type FittedToolDetail } from './budget-tool.js';
import { applyUsagePrior } from '../search/index.js';
import { backfillCategories } from '../catalog/index.js';
import { PassthroughCalls } from './passthrough-calls.js';
import { CatalogView } from './catalog-view.js';
import type { GatewaySearchOptions, SearchStatus } from './search-options.js';
import { ToolSearch } from './tool-search.js';
import type { CallerContext } from './context.js';
import type {
  BrowseRequest,
  BrowseResult,
  CallOutcome,
  CallRequest,
  GatewayServer,
  SearchOutcome,
  SearchResult,
  ServerSummary,
  ToolDetail,
} from './types.js';
import { Upstreams, type UpstreamLimits } from './upstreams.js';
import { checkArgumentsObject, disabled, isRepeatable } from './call-checks.js';
import { planSearch, toResults, type SearchRequest } from './search-plan.js';
export type { SearchRequest } from './search-plan.js';
import { planReload, type ReloadReport } from './reload.js';
import { LIFECYCLE_DEFAULTS, type LifecycleOptions } from './lifecycle.js';
import { validateArguments } from './validate.js';
import { lookupServer, lookupTool, serverDescriptions, serverSummary } from './lookups.js';
import { syncServers, type SyncRequest } from './sync-servers.js';
import { policyTool, VisibilityPolicy, type CompiledRules, type ToolVerdict } from '../policy/index.js';
import { toolDetail } from './detail.js';
import { explainVerdict } from './verdicts.js';
import { catalogDigest, type CatalogDigest } from './digest.js';
import { SessionLedger, type SessionReport } from './sessions.js';

export interface GatewayOptions {
  servers: readonly GatewayServer[];
  store: Store;
  logger: Logger;
  limits?: Partial<UpstreamLimits>;
  /** Restart and circuit-breaker constants (tests shorten them). */
  lifecycle?: Partial<LifecycleOptions>;
  /** How `searchToolsAsync` ranks; lexical when absent. */
  search?: GatewaySearchOptions;
  /** Tool rules from the config (hide, show, tag, file, pin), compiled. */
  rules?: CompiledRules;
  /** The hot list's size and the half-life of a call's weight. */
  hotList?: Partial<HotListOptions>;
}

/** The facade every face calls: search, browse, describe, call, sync. */
export class Gateway {
  private servers: Map<string, GatewayServer>;
  readonly upstreams: Upstreams;
  private readonly view: CatalogView;
  private readonly listeners = new Set<() => void>();
  private readonly toolSearch: ToolSearch;
  private visibility: VisibilityPolicy | null = null;
  private readonly passthrough: PassthroughCalls;
  private rules: CompiledRules | undefined;
  private readonly hotList: HotList;
  private readonly recorder: UsageRecorder;
  private readonly sessions: SessionLedger;

  constructor(private readonly options: GatewayOptions) {
    this.servers = new Map(options.servers.map((s) => [s.id, s]));
    const { store } = options;
    store.servers.pruneExcept([...this.servers.keys()]);
    for (const s of options.servers) store.servers.reconcileConfig(s.id, s.configHash);
    this.rules = options.rules;
    this.recorder = usageRecorder(store, options.logger);
    this.sessions = new SessionLedger(store, options.logger);
    this.hotList = new HotList(store, { ...HOT_LIST_DEFAULTS, ...options.hotList }, (m) =>
      options.logger.warn(m),
    );
    // Tools stored before categories were (or whose categorising was interrupted) get theirs now.
    backfillCategories(store, serverDescriptions(store, this.servers));
    this.upstreams = new Upstreams(
      store,
      options.logger,
      { ...RECORD_DEFAULTS, maxResultBytes: 8 * 1024 * 1024, ...options.limits },
      () => this.catalogChanged(),
      { ...LIFECYCLE_DEFAULTS, ...options.lifecycle },
    );
    this.view = new CatalogView(
      store,
      () => this.policy(),
      () => serverDescriptions(store, this.servers),
      options.logger,
    );
    this.passthrough = new PassthroughCalls(
      this.upstreams,
      () => this.live(),
      (id) => this.usable(id),
      options.logger,
    );
    this.toolSearch = new ToolSearch(options.search ?? { strategy: 'lexical' }, {
      store,
      logger: options.logger,
      catalog: this.view,
    });
  }

  /**
   * Applies a new server list (config hot reload): removed servers stop and lose their tools;
   * servers whose target changed restart and are rediscovered; new ones are discovered; the
   * others keep their connections and in-flight calls and only take the new settings.
   */
  async reload(
    _ctx: CallerContext,
    servers: readonly GatewayServer[],
    rules?: CompiledRules,
  ): Promise<ReloadReport> {
    const next = new Map(servers.map((s) => [s.id, s]));
    if (rules) this.rules = rules;
    const report: ReloadReport = { ...planReload(this.servers, servers), syncs: [] };
    this.servers = next;
    const { store } = this.options;
    for (const id of [...report.removed, ...report.changed]) await this.upstreams.close(id);
    for (const id of report.updated) if (!next.get(id)!.enabled) await this.upstreams.close(id);
    store.servers.pruneExcept([...next.keys()]);
    for (const s of servers) store.servers.reconcileConfig(s.id, s.configHash);
    this.catalogChanged();
    const rediscover = [...report.added, ...report.changed]
      .map((id) => next.get(id)!)
      .filter((s) => s.enabled);
    report.syncs = await Promise.all(rediscover.map((s) => this.upstreams.sync(s)));
    return report;
  }

  /** Called after every catalog change (the MCP face sends `list_changed` to nobody: its tools are fixed). */
  onCatalogChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  listServers(_ctx: CallerContext): ServerSummary[] {
    return [...this.servers.values()].map((s) => this.summary(s));
  }

  /** Discovers the given server (or every enabled one, in parallel) and reports each as it ends. */
  async sync(_ctx: CallerContext, opts: SyncRequest = {}): Promise<SyncReport[]> {
    const targets = opts.server
      ? [this.server(opts.server)]
      : [...this.servers.values()].filter((s) => s.enabled);
    return syncServers(this.upstreams, targets, opts, (id) => this.options.store.servers.get(id)?.status);
  }

  /** Lexical search, synchronous whatever the strategy (see searchToolsAsync). */
  searchTools(ctx: CallerContext, query: string | string[], req: SearchRequest = {}): SearchResult[] {
    const { text, options } = this.searchPlan(ctx, query, req);
    return this.results(applyUsagePrior(this.toolSearch.lexical(text, options), this.hotList.usage()));
  }

  /** Search with the configured strategy (see searchToolsWithMeta). */
  async searchToolsAsync(
    ctx: CallerContext,
    query: string | string[],
    req: SearchRequest = {},
  ): Promise<SearchResult[]> {
    return (await this.searchToolsWithMeta(ctx, query, req)).results;
  }

  /**
   * Search with the configured strategy, and how it was answered. Hybrid and remote embeddings
   * answer lexically until the catalog's vectors are ready; a local model that fails stays off,
   * a remote step that fails or misses its deadline falls back for that search only (logged).
   */
  async searchToolsWithMeta(
    ctx: CallerContext,
    query: string | string[],
    req: SearchRequest = {},
  ): Promise<SearchOutcome> {
    const { text, options } = this.searchPlan(ctx, query, req);
    const { hits, meta } = await this.toolSearch.search(text, options);
    const results = this.results(applyUsagePrior(hits, this.hotList.usage()));
    if (req.maxTokens === undefined) return { results, meta };
    return { ...(await fitResults(results, req.maxTokens)), meta };
  }

  /** Embeds what the current catalog lacks (hybrid, remote embeddings) and resolves when search is ready or degraded. */
  async prepareSearch(_ctx: CallerContext): Promise<SearchStatus> {
    return this.toolSearch.prepare();
  }

  /** The strategy, model, cached vectors, reranker and state of search, for `carte doctor`. */
  searchStatus(_ctx: CallerContext): SearchStatus {
    return this.toolSearch.status();
  }

  private searchPlan(_ctx: CallerContext, query: string | string[], req: SearchRequest) {
    const plan = planSearch(query, req);
    if (plan.options.server !== undefined) this.server(plan.options.server);
    return plan;
  }

  private results(hits: readonly SearchHit[]): SearchResult[] {
    return toResults(hits, (key) => this.view.row(key));
  }

  /**
   * The menu in tiers: `{}` gives the hot list (T0), the categories (T1) and the servers; a
   * category and/or a server gives one page of its tools (T2), paged by a cursor that a catalog
   * change makes stale. `maxTokens` bounds the answer's JSON text.
   */
  async browseTools(_ctx: CallerContext, req: BrowseRequest = {}): Promise<BrowseResult> {
    const policy = this.policy();
    const answer = browse(
      {
        policy,
        servers: [...this.servers.values()],
        row: (key) => this.view.row(key),
        rowsOf: (id) => this.options.store.tools.listByServer(id),
        summary: (s) => this.summary(s),
        server: (id) => this.server(id),
        hot: () => this.hotList.keys(policy),
      },
      req,
    );
    if (req.maxTokens === undefined) return answer;
    return answer.kind === 'menu'
      ? fitMenu(answer, req.maxTokens)
      : fitPage(answer, policy.fingerprint(), req.maxTokens);
  }

  /** The keys an agent may list and call now, sorted (direct mode names them all). */
  listedToolKeys(_ctx: CallerContext): readonly string[] {
    return this.policy().listedKeys();
  }

  /** T0's keys: pinned tools, then the most used. */
  hotToolKeys(_ctx: CallerContext): string[] {
    return this.hotList.keys(this.policy());
  }

  /** One line on what the catalog holds, for the meta-tool descriptions (changes only with the catalog). */
  catalogDigest(_ctx: CallerContext): CatalogDigest {
    return catalogDigest(this.policy());
  }

  /** A downstream session ended: record its tokens against the full listing's (`carte stats`). */
  endSession(_ctx: CallerContext, report: SessionReport): void {
    this.sessions.end(this.policy(), report);
  }

  /** Every tool with the policy's verdict, hidden ones too: for the operator (`carte tools`). */
  toolVerdicts(_ctx: CallerContext): { key: string; verdict: ToolVerdict; why: string }[] {
    return this.policy()
      .all()
      .map(([key, verdict]) => ({ key, verdict, why: explainVerdict(this.rules, verdict) }));
  }

  describeTool(_ctx: CallerContext, key: string): ToolDetail {
    const t = this.tool(key);
    return toolDetail(t, this.summary(this.server(t.serverId)).status);
  }

  /** `describe_tool` within `maxTokens`: detail given up in TOOL_DETAIL_LEVELS order. */
  async describeToolWithin(ctx: CallerContext, key: string, maxTokens?: number): Promise<FittedToolDetail> {
    const detail = this.describeTool(ctx, key);
    return maxTokens === undefined ? detail : (await fitToolDetail(detail, maxTokens)).answer;
  }

  /** Validates the arguments, then calls the upstream tool and returns its result verbatim. */
  async callTool(
    _ctx: CallerContext,
    key: string,
    args: unknown,
    req: CallRequest = {},
  ): Promise<CallOutcome> {
    // Recorded from the start, so unknown keys and refused arguments count as failed calls.
    const server = typeof key === 'string' && key.includes('/') ? policyTool(key).server : '';
    return recordCall(this.recorder, { key: String(key), server }, () => this.runCall(key, args, req));
  }

  private async runCall(key: string, args: unknown, req: CallRequest): Promise<CallOutcome> {
    const t = this.tool(key);
    const s = this.server(t.serverId);
    if (!s.enabled) throw disabled(s.id);
    const argv = checkArgumentsObject(key, args);
    if (!t.schemaTruncatedFrom) validateArguments(key, t.contentHash, t.inputSchema, argv);
    return this.upstreams.withCall(s, req.signal, (conn) =>
      conn.callTool(t.name, argv, {
        timeoutMs: s.timeoutMs,
        ...(req.signal ? { signal: req.signal } : {}),
        // Always ask for progress: an upstream that reports it keeps its call alive past timeoutMs.
        onProgress: req.onProgress ?? (() => undefined),
        idempotent: isRepeatable(t.annotations),
        ...(req.meta ? { meta: req.meta } : {}),
      }),
    );
  }

  /** Resources of every enabled, discovered server (starts those not yet connected). */
  listResources(_ctx: CallerContext): Promise<Record<string, unknown>[]> {
    return this.passthrough.listResources();
  }

  readResource(_ctx: CallerContext, uri: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return this.passthrough.readResource(uri, signal);
  }

  listPrompts(_ctx: CallerContext): Promise<Record<string, unknown>[]> {
    return this.passthrough.listPrompts();
  }

  getPrompt(
    _ctx: CallerContext,
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    return this.passthrough.getPrompt(name, args, signal);
  }

  /** The store's health for `carte doctor`: its file and `PRAGMA integrity_check`. */
  checkStore(_ctx: CallerContext): { path: string; integrity: string } {
    return { path: this.options.store.path, integrity: this.options.store.checkIntegrity() };
  }

  /** The configured server, or a clear error naming the unknown id. */
  server(id: string): GatewayServer {
    return lookupServer(this.servers, id);
  }

  async close(): Promise<void> {
    await this.sessions.close();
    await this.toolSearch.close();
    await this.upstreams.close();
  }

  /** Enabled servers whose last discovery succeeded. */
  private live(): GatewayServer[] {
    return [...this.servers.values()].filter(
      (s) => s.enabled && this.options.store.servers.get(s.id)?.status === 'success',
    );
  }

  private usable(id: string): GatewayServer {
    const s = this.server(id);
    if (!s.enabled) throw disabled(id);
    return s;
  }

  private tool(key: string): ToolRow {
    return lookupTool(this.options.store, this.servers, this.policy(), key);
  }

  /** Who sees what, computed once per catalog or config change (never per request). */
  private policy(): VisibilityPolicy {
    this.visibility ??= VisibilityPolicy.compute({
      servers: [...this.servers.values()],
      tools: this.options.store.tools.listKeys().map(policyTool),
      ...(this.rules ? { rules: this.rules } : {}),
      categories: this.options.store.tools.listCategories(),
    });
    return this.visibility;
  }

  private summary(s: GatewayServer): ServerSummary {
    return serverSummary(this.options.store, this.upstreams, s);
  }

  private catalogChanged(): void {
    this.visibility = null;
    this.hotList.invalidate();
    this.view.invalidate();
    this.toolSearch.catalogChanged();
    for (const l of this.listeners) l();
  }
}
