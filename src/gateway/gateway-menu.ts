// The gateway's menu methods (Gateway delegates to them): browse in tiers, the hot list, the
// catalog digest, direct mode's definitions, and the describe family (describe_tool, its filed
// and token-bounded forms, run_code's signatures). All scoped to the caller's project.
import type { ToolRow } from '../store/index.js';
import type { VisibilityPolicy } from '../policy/index.js';
import type { CallerContext } from './access/context.js';
import { requireScope } from './access/scopes.js';
import { lookupServer } from './calls/lookups.js';
import type { ToolRows } from './calls/tool-rows.js';
import type { CatalogView } from './find/catalog-view.js';
import { fitToolDetail, type FittedToolDetail } from './menu/budget-tool.js';
import { toolDetail } from './menu/detail.js';
import { catalogDigest, type CatalogDigest } from './menu/digest.js';
import { filedDetail, type FiledToolDetail } from './menu/filed-detail.js';
import type { HotList } from './menu/hot-list.js';
import { fitMenu, fitPage } from './menu/menu-budget.js';
import { browse } from './menu/menu.js';
import { fitSignatures, toolSignature, type FittedSignatures } from './scripts/signature.js';
import type { CatalogMirror } from './shared/catalog-mirror.js';
import type {
  BrowseRequest,
  BrowseResult,
  GatewayServer,
  ServerSummary,
  ToolDetail,
} from './shared/types.js';
import type { AuditLog } from './trust/audit.js';
import { audited } from './trust/audited.js';
import type { Policies } from './trust/policies.js';

export interface GatewayMenuParts {
  audit: AuditLog;
  policies: Policies;
  view: CatalogView;
  mirror: CatalogMirror;
  hotList: HotList;
  rows: ToolRows;
  /** A tool the caller may see (Gateway's lookup: another project's or a hidden one is unknown). */
  tool: (ctx: CallerContext, key: string) => Promise<ToolRow>;
  /** The configured server, or a clear error naming the unknown id. */
  server: (id: string) => GatewayServer;
  summary: (s: GatewayServer) => ServerSummary;
}

export class GatewayMenu {
  private readonly digests = new WeakMap<VisibilityPolicy, CatalogDigest>();

  constructor(private readonly parts: GatewayMenuParts) {}

  /** The menu in tiers (see Gateway.browseTools); audited as a `browse` unless `how.audit` is false. */
  browseTools(ctx: CallerContext, req: BrowseRequest, how: { audit: boolean }): Promise<BrowseResult> {
    if (!how.audit) return this.browse(ctx, req);
    const detail = JSON.stringify({ category: req.category, server: req.server });
    return audited(this.parts.audit, ctx, { kind: 'browse', detail }, () => this.browse(ctx, req));
  }

  private async browse(ctx: CallerContext, req: BrowseRequest): Promise<BrowseResult> {
    const { policies, hotList, view, mirror } = this.parts;
    requireScope(ctx, 'search', 'browse_tools');
    await policies.noticeExternalChange();
    await hotList.refresh(policies.project(ctx).id);
    await view.prepare();
    const policy = policies.forCaller(ctx);
    const servers = policies.servers(ctx);
    const answer = browse(
      {
        policy,
        servers: [...servers.values()],
        row: (key) => view.row(key),
        rowsOf: (id) => mirror.tools.filter((t) => t.serverId === id),
        summary: this.parts.summary,
        server: (id) => lookupServer(servers, id),
        hot: () => this.hotToolKeys(ctx),
      },
      req,
    );
    if (req.maxTokens === undefined) return answer;
    return answer.kind === 'menu'
      ? fitMenu(answer, req.maxTokens)
      : fitPage(answer, policy.fingerprint(), req.maxTokens);
  }

  /** Definitions of tools the caller may see, skipping the others: direct mode's listing (not audited). */
  async toolDefinitions(ctx: CallerContext, keys: readonly string[]): Promise<ToolDetail[]> {
    const { policies, rows } = this.parts;
    requireScope(ctx, 'search', 'listing tools');
    await policies.noticeExternalChange();
    const policy = policies.forCaller(ctx);
    const found = await Promise.all(keys.filter((k) => policy.isListed(k)).map((k) => rows.get(k)));
    return found.flatMap((t) => (t ? [toolDetail(t, 'success')] : []));
  }

  /** T0's keys: pinned tools, then the most used (the project's hot list size, else menu.hotList). */
  hotToolKeys(ctx: CallerContext): string[] {
    const { policies, hotList } = this.parts;
    const project = policies.project(ctx);
    return hotList.keys(policies.forCaller(ctx), project.id, project.hotList);
  }

  /** One line on what the caller's catalog holds, for the meta-tool descriptions. */
  catalogDigest(ctx: CallerContext): CatalogDigest {
    // A policy is replaced on every catalog or config change, so its digest is computed once
    // (the HTTP face builds an MCP server, and asks, per modern-era request).
    const policy = this.parts.policies.forCaller(ctx);
    let digest = this.digests.get(policy);
    if (!digest) this.digests.set(policy, (digest = Object.freeze(catalogDigest(policy))));
    return digest;
  }

  /** `describe_tool`: one tool the caller may see, with its server's status; audited as a `describe`. */
  describeTool(ctx: CallerContext, key: string): Promise<ToolDetail> {
    const { audit, policies, tool, server, summary } = this.parts;
    return audited(audit, ctx, { kind: 'describe', key: String(key) }, async () => {
      requireScope(ctx, 'search', 'describe_tool');
      await policies.noticeExternalChange();
      const t = await tool(ctx, key);
      return toolDetail(t, summary(server(t.serverId)).status);
    });
  }

  /** `describe_tool` with the call class, category and tags (the REST API and the web page). */
  async describeToolFiled(ctx: CallerContext, key: string): Promise<FiledToolDetail> {
    const d = await this.describeTool(ctx, key);
    const verdict = this.parts.policies.forCaller(ctx).verdict(key);
    const filed = filedDetail(d, verdict, this.parts.server(d.server).trusted);
    return { ...filed, signature: toolSignature(d) };
  }

  /** Tools as TypeScript `call` overloads within `maxTokens` (each read is a describe row): for run_code's authors. */
  async toolSignatures(
    ctx: CallerContext,
    keys: readonly string[],
    maxTokens?: number,
  ): Promise<FittedSignatures> {
    const details = await Promise.all(keys.map((key) => this.describeTool(ctx, key)));
    return fitSignatures(details, maxTokens);
  }

  /** `describe_tool` within `maxTokens`: detail given up in TOOL_DETAIL_LEVELS order. */
  async describeToolWithin(ctx: CallerContext, key: string, maxTokens?: number): Promise<FittedToolDetail> {
    const detail = await this.describeTool(ctx, key);
    return maxTokens === undefined ? detail : (await fitToolDetail(detail, maxTokens)).answer;
  }
}
