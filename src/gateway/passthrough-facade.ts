import { CarteError } from '../errors.js';
import { LOG_LEVELS, type LogLevel } from '../upstream/index.js';
import type { CallerContext } from './access/context.js';
import { requireScope, scopeAllows } from './access/scopes.js';
import type { CallOn, PassthroughCalls, Where } from './calls/passthrough-calls.js';
import { unwrapResourceUri } from './calls/passthrough.js';
import { notRelayedRefusal } from './calls/per-user.js';
import { isPerUser, type GatewayServer } from './shared/types.js';
import type { EventSink, UpstreamEvents } from './calls/upstream-events.js';
import type { Policies } from './trust/policies.js';

type Item = Record<string, unknown>;

/** One downstream session's log level and resource subscriptions (Carte URIs). */
export interface DownstreamEvents {
  /** `logging/setLevel`: messages below `level` are no longer sent to this session. */
  setLevel(level: string): void;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  close(): void;
}

/**
 * The upstreams' own MCP surface behind the facade, for the caller's project: resources, resource
 * templates, prompts, completions, log messages and resource subscriptions (docs/mcp.md).
 */
export class UpstreamPassthrough {
  constructor(
    private readonly policies: Policies,
    private readonly calls: PassthroughCalls,
    private readonly events: UpstreamEvents,
  ) {}

  /** Resources of every enabled, discovered server the caller's project sees (starts those not yet connected). */
  listResources(ctx: CallerContext): Promise<Item[]> {
    requireScope(ctx, 'search', 'listing resources');
    return this.calls.listResources(this.policies.liveServers(ctx));
  }

  listResourceTemplates(ctx: CallerContext): Promise<Item[]> {
    requireScope(ctx, 'search', 'listing resource templates');
    return this.calls.listResourceTemplates(this.policies.liveServers(ctx));
  }

  /** `on.log`: a 2026-era request's own log level and stream (calls/request-log.ts). */
  readResource(ctx: CallerContext, uri: string, on: CallOn = {}): Promise<Item> {
    requireScope(ctx, 'call', 'reading a resource');
    return this.calls.readResource(uri, (id) => this.relayed(ctx, id), on);
  }

  listPrompts(ctx: CallerContext): Promise<Item[]> {
    requireScope(ctx, 'search', 'listing prompts');
    return this.calls.listPrompts(this.policies.liveServers(ctx));
  }

  getPrompt(ctx: CallerContext, name: string, args: Item, on: CallOn = {}): Promise<Item> {
    requireScope(ctx, 'call', 'getting a prompt');
    return this.calls.getPrompt(name, args, this.where(ctx), on);
  }

  /** `completion/complete` for a prompt or resource template, answered by the server that owns it. */
  complete(ctx: CallerContext, params: Item, on: CallOn = {}): Promise<Item> {
    // Suggestions for an argument are a discovery aid, as listing prompts is: the search scope.
    requireScope(ctx, 'search', 'completing an argument');
    return this.calls.complete(params, this.where(ctx), on);
  }

  /**
   * A downstream session's log messages and resource updates from the upstreams its caller sees.
   * Log messages need the search scope, subscriptions the call scope (as reading does). A sink
   * without `log` (a 2026-era listen stream) hears no log messages and sets no upstream level.
   */
  openEvents(ctx: CallerContext, sink: EventSink): DownstreamEvents {
    const hears = scopeAllows(ctx.scopes, 'search');
    const session = this.events.open((id) => hears && this.policies.servers(ctx).has(id), sink);
    const target = (uri: string) => {
      requireScope(ctx, 'call', 'subscribing to a resource');
      const { server, uri: upstream } = unwrapResourceUri(uri);
      return { server: this.relayed(ctx, server), upstream };
    };
    return {
      setLevel: (level) => session.setLevel(logLevel(level)),
      subscribe: async (uri) => {
        const t = target(uri);
        await session.subscribe(t.server, t.upstream);
      },
      unsubscribe: async (uri) => {
        const t = target(uri);
        await session.unsubscribe(t.server, t.upstream);
      },
      close: () => session.close(),
    };
  }

  private where(ctx: CallerContext): Where {
    return {
      usable: (id) => this.relayed(ctx, id),
      live: () => this.policies.liveServers(ctx),
    };
  }

  /**
   * The caller's enabled server by id, whose resources and prompts are relayed: a per-user
   * server's are refused (each person's are their own; passthrough-calls.ts lists none of them).
   */
  private relayed(ctx: CallerContext, id: string): GatewayServer {
    const s = this.policies.enabledServer(ctx, id);
    if (isPerUser(s)) throw notRelayedRefusal(s.id);
    return s;
  }
}

function logLevel(level: string): LogLevel {
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new CarteError(
    'bad_input',
    `log level "${String(level).slice(0, 40)}" is not one of ${LOG_LEVELS.join(', ')}`,
  );
}
