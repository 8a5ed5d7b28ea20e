import type { SyncReport } from '../catalog/index.js';
import type { ToolRow } from '../store/index.js';
import { HOT_LIST_DEFAULTS, type HotList } from './menu/hot-list.js';
import type { CallbackDesk } from '../upstream/index.js';
import type { AuditLog, AuditObservation } from './trust/audit.js';
import { runToolCall } from './calls/call-pipeline.js';
import { runCode, type RunCodeRequest } from './scripts/run-code.js';
import type { UpstreamPassthrough } from './passthrough-facade.js';
import type { CatalogView } from './find/catalog-view.js';
import type { SearchStatus } from './shared/search-options.js';
import type { ProjectSearchStatus, SearchStrategies } from './find/search-strategies.js';
import type { CallerContext } from './access/context.js';
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
} from './shared/types.js';
import type { Upstreams } from './calls/upstreams.js';
import type { SearchRequest } from './find/search-plan.js';
import type { GatewaySearch } from './find/gateway-search.js';
import { applyReload, type ReloadPolicy, type ReloadReport } from './calls/reload.js';
import { lookupServer, lookupTool, serverSummary } from './calls/lookups.js';
import { syncServers, type SyncRequest } from './calls/sync-servers.js';
import { policyTool, type ToolVerdict } from '../policy/index.js';
import type { Policies } from './trust/policies.js';
import { implicitDefault, DEFAULT_PROJECT } from './access/projects.js';
import type { ProjectRate } from './access/rate-limits.js';
import { requireScope } from './access/scopes.js';
import type { SessionReport } from './menu/sessions.js';
import type { FittedToolDetail } from './menu/budget-tool.js';
import type { CatalogDigest } from './menu/digest.js';
import type { FiledToolDetail } from './menu/filed-detail.js';
import type { FittedSignatures } from './scripts/signature.js';
import type { CatalogMirror } from './shared/catalog-mirror.js';
import { GatewayMenu } from './gateway-menu.js';
import {
  closeParts,
  gatewayParts,
  prepareDictionaries,
  refreshAfterChange,
  startCatalog,
  type GatewayOptions,
  type GatewayParts,
} from './gateway-parts.js';

/**
 * The facade every face calls: search, browse, describe, call, sync. Made by `Gateway.open`, which
 * reads the stored catalog into memory before the first request.
 */
export class Gateway {
  /** Reconciles the store with the configured servers and reads the catalog: a gateway ready to serve. */
  static async open(options: GatewayOptions): Promise<Gateway> {
    const gateway = new Gateway(options);
    await gateway.start();
    return gateway;
  }

  private servers: Map<string, GatewayServer>;
  readonly upstreams: Upstreams;
  private readonly view: CatalogView;
  private readonly listeners = new Set<() => void>();
  private readonly searches: SearchStrategies;
  private readonly policies: Policies;
  /** Resources, templates, prompts, completions, log messages and subscriptions of the upstreams. */
  readonly passthrough: UpstreamPassthrough;
  private readonly hotList: HotList;
  readonly audit: AuditLog;
  /** Where sign-ins asked of an agent's client come back (the HTTP face's /oauth/callback); else loopback. */
  callbackDesk: CallbackDesk | undefined;
  private readonly search: GatewaySearch;
  private readonly mirror: CatalogMirror;
  private unsubscribe: () => void = () => undefined;
  private readonly parts: GatewayParts;
  private readonly menu: GatewayMenu;

  private constructor(private readonly options: GatewayOptions) {
    this.servers = new Map(options.servers.map((s) => [s.id, s]));
    const p = gatewayParts(options, () => this.servers, () => this.catalogChanged()); // prettier-ignore
    this.parts = p;
    this.mirror = p.mirror;
    this.policies = p.policies;
    this.audit = p.audit;
    this.hotList = p.hotList;
    this.upstreams = p.upstreams;
    this.view = p.view;
    this.passthrough = p.passthrough;
    this.searches = p.searches;
    this.search = p.search;
    const tool = (ctx: CallerContext, key: string) => this.tool(ctx, key);
    const server = (id: string) => this.server(id);
    this.menu = new GatewayMenu({ ...p, tool, server, summary: this.summary });
  }

  private async start(): Promise<void> {
    const at = { servers: this.servers, mirror: this.mirror, upstreams: this.upstreams };
    this.unsubscribe = await startCatalog(this.options, at, () => this.catalogChanged());
  }

  /** Applies a new config (hot reload): servers (see applyReload), rules and projects. */
  async reload(
    ctx: CallerContext,
    servers: readonly GatewayServer[],
    policy?: ReloadPolicy,
  ): Promise<ReloadReport> {
    requireScope(ctx, 'admin', 'reloading the config');
    if (policy?.hotList) this.hotList.configure({ ...HOT_LIST_DEFAULTS, ...policy.hotList });
    if (policy) {
      const projects = policy.projects ?? new Map([[DEFAULT_PROJECT, implicitDefault()]]);
      this.policies.configure(policy.rules, projects);
      await this.searches.configure(projects);
    }
    const before = this.servers;
    this.servers = new Map(servers.map((s) => [s.id, s]));
    return applyReload({ store: this.options.store, upstreams: this.upstreams }, before, servers, () =>
      this.catalogChanged(),
    );
  }

  /** Called after every catalog change (the MCP face sends `list_changed` to nobody: its tools are fixed). */
  onCatalogChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** What signing in to an upstream reaches from a face that holds only the gateway (elicited-sign-in.ts). */
  get signInSite(): { gateway: Gateway; store: GatewayOptions['store'] } {
    return { gateway: this, store: this.options.store };
  }

  /** Each audited search, browse, describe and call as it ends, without arguments (the HTTP face's metrics). */
  onAuditEvent(listener: (e: AuditObservation) => void): () => void {
    return this.audit.onEvent(listener);
  }

  /** The servers for the operator (`carte servers`, `doctor`): admin scope. */
  listServers(ctx: CallerContext): ServerSummary[] {
    requireScope(ctx, 'admin', 'listing servers with their targets');
    return [...this.policies.operated(ctx).values()].map((s) => this.summary(s));
  }

  /** Discovers the given server (or every enabled one, in parallel) and reports each as it ends. */
  async sync(ctx: CallerContext, opts: SyncRequest = {}): Promise<SyncReport[]> {
    requireScope(ctx, 'admin', 'discovering servers');
    const targets = opts.server
      ? [this.policies.operatedServer(ctx, opts.server)]
      : [...this.policies.operated(ctx).values()].filter((s) => s.enabled);
    return syncServers(this.upstreams, targets, opts, (id) => this.mirror.server(id)?.status);
  }

  /** Lexical search, synchronous whatever the strategy. */
  searchTools(ctx: CallerContext, query: string | string[], req: SearchRequest = {}): SearchResult[] {
    return this.search.searchTools(ctx, query, req);
  }

  /** Search with the configured strategy (see searchToolsWithMeta). */
  async searchToolsAsync(
    ctx: CallerContext,
    query: string | string[],
    req: SearchRequest = {},
  ): Promise<SearchResult[]> {
    return (await this.search.searchToolsWithMeta(ctx, query, req)).results;
  }

  /**
   * Search with the configured strategy, and how it was answered. Hybrid and remote embeddings
   * answer lexically until the vectors and model are ready; a local model that fails retries with backoff,
   * a remote step that fails or misses its deadline falls back for that search only (logged).
   */
  searchToolsWithMeta(
    ctx: CallerContext,
    query: string | string[],
    req: SearchRequest = {},
  ): Promise<SearchOutcome> {
    return this.search.searchToolsWithMeta(ctx, query, req);
  }

  /**
   * Embeds what the current catalog lacks (hybrid, remote embeddings) for the caller's project's
   * strategy (its own, else the top-level one) and resolves when search is ready or degraded.
   */
  async prepareSearch(ctx: CallerContext): Promise<SearchStatus> {
    await this.view.prepare();
    return this.searches.of(ctx.projectId).prepare();
  }

  /**
   * prepareSearch for the top-level strategy and every project's own (each shared one once), with
   * each project's status; `projects` is empty when none has its own (`carte doctor`, `serve`).
   */
  async prepareSearches(ctx: CallerContext): Promise<{ top: SearchStatus; projects: ProjectSearchStatus[] }> {
    requireScope(ctx, 'admin', "preparing every project's search");
    // The gloss files first, in child processes (this event loop stays free): the index is then
    // built once, with every dictionary's glosses. Built first, it blocked on CC-CEDICT's and
    // EDICT's files (13 s on the 7k catalog) and was built again once Apertium's was there.
    await prepareDictionaries(this.options.logger);
    await this.view.prepare();
    return this.searches.prepareAll(this.policies.projectIds());
  }

  /** The strategy, model, cached vectors, reranker and state of the caller's project's search. */
  searchStatus(ctx: CallerContext): Promise<SearchStatus> {
    return this.searches.of(ctx.projectId).status();
  }

  /**
   * The menu in tiers: `{}` gives the hot list (T0), the categories (T1) and the servers; a
   * category and/or a server gives one page of its tools (T2), paged by a cursor that a catalog
   * change makes stale. `maxTokens` bounds the answer's JSON text. Audited as a `browse`, except
   * with `audit: false`: the REST menu routes, a page's reads (docs/security.md, "Audit log").
   */
  browseTools(ctx: CallerContext, req: BrowseRequest = {}, how = { audit: true }): Promise<BrowseResult> {
    return this.menu.browseTools(ctx, req, how);
  }

  /** The keys an agent may list and call now, sorted (direct mode names them all). */
  listedToolKeys(ctx: CallerContext): readonly string[] {
    return this.policies.forCaller(ctx).listedKeys();
  }

  /** Definitions of tools the caller may see, skipping the others: direct mode's listing (not audited). */
  toolDefinitions(ctx: CallerContext, keys: readonly string[]): Promise<ToolDetail[]> {
    return this.menu.toolDefinitions(ctx, keys);
  }

  /** T0's keys: pinned tools, then the most used (the project's hot list size, else menu.hotList). */
  hotToolKeys(ctx: CallerContext): string[] {
    return this.menu.hotToolKeys(ctx);
  }

  /** One line on what the caller's catalog holds, for the meta-tool descriptions. */
  catalogDigest(ctx: CallerContext): CatalogDigest {
    return this.menu.catalogDigest(ctx);
  }

  /** A downstream session ended: record its tokens against the full listing's (`carte stats`). */
  endSession(ctx: CallerContext, report: SessionReport): void {
    this.parts.sessions.end(this.policies.forCaller(ctx), report, ctx.projectId);
  }

  /** Every tool of the caller's project with its verdict, hidden ones too: for the operator (`carte tools`). */
  toolVerdicts(ctx: CallerContext): { key: string; verdict: ToolVerdict; why: string }[] {
    requireScope(ctx, 'admin', 'listing hidden tools');
    return this.policies.verdicts(ctx);
  }

  /** `describe_tool`: one tool the caller may see, with its server's status. */
  describeTool(ctx: CallerContext, key: string): Promise<ToolDetail> {
    return this.menu.describeTool(ctx, key);
  }

  /** `describe_tool` with the call class, category and tags (the REST API and the web page). */
  describeToolFiled(ctx: CallerContext, key: string): Promise<FiledToolDetail> {
    return this.menu.describeToolFiled(ctx, key);
  }

  /** Tools as TypeScript `call` overloads within `maxTokens` (each read is a describe row): for run_code's authors. */
  toolSignatures(ctx: CallerContext, keys: readonly string[], maxTokens?: number): Promise<FittedSignatures> {
    return this.menu.toolSignatures(ctx, keys, maxTokens);
  }

  /** `describe_tool` within `maxTokens`: detail given up in TOOL_DETAIL_LEVELS order. */
  describeToolWithin(ctx: CallerContext, key: string, maxTokens?: number): Promise<FittedToolDetail> {
    return this.menu.describeToolWithin(ctx, key, maxTokens);
  }

  /** Validates the arguments, then calls the upstream tool and returns its result verbatim. */
  async callTool(
    ctx: CallerContext,
    key: string,
    args: unknown,
    req: CallRequest = {},
  ): Promise<CallOutcome> {
    // Audited from the start, so refused scopes, unknown keys and bad arguments are rows too.
    const server = typeof key === 'string' && key.includes('/') ? policyTool(key).server : '';
    const target = { key: String(key), server, args, parentId: req.parentId };
    return this.audit.call(ctx, target, async () => {
      requireScope(ctx, 'call', 'call_tool');
      await this.policies.noticeExternalChange();
      const policy = this.policies.forCaller(ctx); // one policy for the whole call
      const tool = await this.tool(ctx, key, policy);
      const plan = {
        tool,
        server: this.server(tool.serverId),
        project: this.policies.project(ctx),
        ruleClass: policy.verdict(key)?.ruleClass,
        caller: ctx,
      };
      return runToolCall(this.upstreams, plan, args, req);
    });
  }

  /** run_code: a script whose calls each pass callTool's gates; one `code` audit row, its calls' rows under it. */
  runCode(ctx: CallerContext, code: string, req: RunCodeRequest = {}): Promise<CallOutcome> {
    return this.audit.call(ctx, { key: 'run_code', server: '', args: { code }, kind: 'code' }, (parentId) => {
      requireScope(ctx, 'call', 'run_code');
      return runCode(code, req, {
        call: (key, args, r) => this.callTool(ctx, key, args, { ...r, parentId }),
        search: (q, limit) => this.searchToolsAsync(ctx, q, limit === undefined ? {} : { limit }),
      });
    });
  }

  /** The store's health for `carte doctor`: its file and `PRAGMA integrity_check`. */
  async checkStore(ctx: CallerContext): Promise<{ path: string; engine: string; integrity: string }> {
    requireScope(ctx, 'admin', 'checking the store');
    const { path, engine } = this.options.store;
    return { path, engine, integrity: await this.options.store.checkIntegrity() };
  }

  /** Resolves when the store answers a trivial statement (readiness); rejects with why not. */
  pingStore(): Promise<void> {
    return this.options.store.ping();
  }

  /** The configured project ids (a config without projects has `default`). */
  projectIds(): string[] {
    return this.policies.projectIds();
  }

  /** The project's request limits as configured now (a reload changes them); undefined when none or no such project. */
  projectRate(projectId: string): ProjectRate | undefined {
    return this.policies.projectRate(projectId);
  }

  /** The configured server, or a clear error naming the unknown id. */
  server(id: string): GatewayServer {
    return lookupServer(this.servers, id);
  }

  async close(): Promise<void> {
    this.unsubscribe();
    await closeParts(this.parts);
  }

  /** A tool the caller may see; another project's or a hidden one answers exactly like an unknown key. */
  private tool(ctx: CallerContext, key: string, policy = this.policies.forCaller(ctx)): Promise<ToolRow> {
    const from = { servers: () => this.policies.servers(ctx), policy, rows: this.parts.rows };
    return lookupTool(this.options.store, from, key);
  }

  private readonly summary = (s: GatewayServer): ServerSummary =>
    serverSummary(this.mirror, this.upstreams, s);

  /** A change written to the store in this process outside the gateway (an approval): read it now. */
  catalogChangedHere(): Promise<void> {
    return this.catalogChanged();
  }

  /** After every catalog change: the mirror is read again and everything derived from it rebuilt. */
  private async catalogChanged(): Promise<void> {
    await refreshAfterChange(this.parts);
    for (const l of this.listeners) l();
  }
}
