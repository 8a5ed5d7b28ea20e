// The policies the gateway asks (one room for visibility): the catalog policy (what the search
// index holds and how tools are filed) and one VisibilityPolicy per project, each computed once
// per catalog or config change, never per request.
import {
  concatRules,
  policyTool,
  VisibilityPolicy,
  type CompiledRules,
  type PolicyTool,
  type ToolVerdict,
} from '../../policy/index.js';
import type { CatalogMirror } from '../shared/catalog-mirror.js';
import { disabled } from '../calls/call-checks.js';
import { lookupServer } from '../calls/lookups.js';
import { explainVerdict } from './verdicts.js';
import type { CallerContext } from '../access/context.js';
import { lookupProject, projectSees, type GatewayProject } from '../access/projects.js';
import type { ProjectRate } from '../access/rate-limits.js';
import type { GatewayServer } from '../shared/types.js';

export interface PolicySource {
  /** The stored catalog in memory: tools, categories, quarantine, servers' discovery rows. */
  mirror: CatalogMirror;
  /** The quarantine changed behind the gateway's back (another process approved a tool). */
  externalChange: () => Promise<void>;
  servers: () => ReadonlyMap<string, GatewayServer>;
}

export class Policies {
  private catalogPolicy: VisibilityPolicy | null = null;
  private readonly byProject = new Map<string, VisibilityPolicy>();
  private tools: PolicyTool[] | null = null;
  /** The signature read in flight (see noticeExternalChange). */
  private check: Promise<void> | undefined;

  constructor(
    private readonly src: PolicySource,
    private rules: CompiledRules | undefined,
    private projects: ReadonlyMap<string, GatewayProject>,
  ) {}

  /** New rules or projects (a config reload). */
  configure(rules: CompiledRules | undefined, projects: ReadonlyMap<string, GatewayProject>): void {
    this.rules = rules;
    this.projects = projects;
    this.invalidate();
  }

  invalidate(): void {
    this.catalogPolicy = null;
    this.byProject.clear();
    this.tools = null;
  }

  /** The caller's project (or `denied` when it is not configured). */
  project(ctx: CallerContext): GatewayProject {
    return lookupProject(this.projects, ctx.projectId);
  }

  /** A project's request limits, read on every HTTP request: a map lookup. */
  projectRate(projectId: string): ProjectRate | undefined {
    return this.projects.get(projectId)?.rate;
  }

  projectIds(): string[] {
    return [...this.projects.keys()];
  }

  /** The configured servers the caller's project sees. */
  servers(ctx: CallerContext): Map<string, GatewayServer> {
    const p = this.project(ctx);
    return new Map([...this.src.servers()].filter(([id]) => projectSees(p, id)));
  }

  /** Enabled servers of the caller's project whose last discovery succeeded (resources, prompts). */
  liveServers(ctx: CallerContext): GatewayServer[] {
    return [...this.servers(ctx).values()].filter(
      (s) => s.enabled && this.src.mirror.server(s.id)?.status === 'success',
    );
  }

  /**
   * The servers an operator method (servers with targets, discovery, verdicts) covers: every
   * configured one for the local operator (scope `*`, never granted to a token), else the
   * caller's project's: an admin token administers its project only.
   */
  operated(ctx: CallerContext): ReadonlyMap<string, GatewayServer> {
    return ctx.scopes.includes('*') ? this.src.servers() : this.servers(ctx);
  }

  /** A server operator methods may touch, or the unknown-server error (also for another project's). */
  operatedServer(ctx: CallerContext, id: string): GatewayServer {
    return lookupServer(this.operated(ctx), id);
  }

  /** A server of the caller's project that is enabled, or the error (unknown for another project's). */
  enabledServer(ctx: CallerContext, id: string): GatewayServer {
    const s = lookupServer(this.servers(ctx), id);
    if (!s.enabled) throw disabled(id);
    return s;
  }

  /** Every tool of the caller's project with its verdict and why, hidden ones too (the operator's view). */
  verdicts(ctx: CallerContext): { key: string; verdict: ToolVerdict; why: string }[] {
    // Rule indexes count the global rules, then the project's (as they are evaluated).
    const rules = concatRules(this.rules, this.project(ctx).rules);
    const own = this.operated(ctx);
    return this.forCaller(ctx)
      .all()
      .filter(([key]) => own.has(key.slice(0, key.indexOf('/')))) // server ids hold no '/'
      .map(([key, verdict]) => ({ key, verdict, why: explainVerdict(rules, verdict) }));
  }

  /** What the caller may see: its project's servers, the global rules then the project's. */
  forCaller(ctx: CallerContext): VisibilityPolicy {
    const p = this.project(ctx);
    let policy = this.byProject.get(p.id);
    if (!policy) {
      // A project that sees every server and adds no rules sees what the catalog policy says.
      policy =
        p.servers === 'all' && !p.rules
          ? this.catalog()
          : this.compute(
              [...this.src.servers().values()].filter((s) => projectSees(p, s.id)),
              concatRules(this.rules, p.rules),
            );
      this.byProject.set(p.id, policy);
    }
    return policy;
  }

  /**
   * Every configured server with the global rules only: the search index holds the tools of its
   * enabled servers that are not quarantined (each search then keeps the caller's), filed by it.
   */
  catalog(): VisibilityPolicy {
    this.catalogPolicy ??= this.compute([...this.src.servers().values()], this.rules);
    return this.catalogPolicy;
  }

  /**
   * A quarantine changed by another process (an approval through the CLI) reaches this gateway at
   * its next request: the async entry points (calls, searches, browsing) await this first. On
   * SQLite it reads the quarantine's signature (requests arriving while a read is in flight share
   * it); a shared store (PostgreSQL) tells every replica of a change itself (Store.subscribe), so
   * nothing is read per request. Changes made through this gateway reload the mirror directly.
   */
  noticeExternalChange(): Promise<void> {
    if (this.src.mirror.announced) return Promise.resolve();
    this.check ??= (async () => {
      try {
        if (await this.src.mirror.trustMoved()) await this.src.externalChange();
      } finally {
        this.check = undefined;
      }
    })();
    return this.check;
  }

  private compute(servers: GatewayServer[], rules: CompiledRules | undefined): VisibilityPolicy {
    const { mirror } = this.src;
    this.tools ??= mirror.tools.map((t) => policyTool(t.key));
    return VisibilityPolicy.compute({
      servers,
      tools: this.tools,
      ...(rules ? { rules } : {}),
      categories: mirror.categories,
      quarantined: mirror.quarantined,
    });
  }
}
