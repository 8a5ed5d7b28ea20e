import { CarteError, operatorMessage } from '../../errors.js';
import type { Logger } from '../../upstream/index.js';
import {
  listFromAll,
  splitPrefixed,
  unwrapResourceUri,
  wrapReadResult,
  type ListKind,
} from './passthrough.js';
import type { GatewayServer, RequestLog } from '../shared/types.js';
import type { Upstreams } from './upstreams.js';
import { isPerUser } from './per-user.js';

type Item = Record<string, unknown>;

/** A request's abort signal and, for a 2026-era request that asked for them, its log messages. */
export interface CallOn {
  signal?: AbortSignal | undefined;
  log?: RequestLog | undefined;
}

/** The caller's servers: those it may use by id, and the live ones (enabled and discovered). */
export interface Where {
  usable: (id: string) => GatewayServer;
  live: () => GatewayServer[];
}

/** Upstream resources and prompts behind the gateway facade (server-prefixed names and URIs). */
export class PassthroughCalls {
  constructor(
    private readonly upstreams: Upstreams,
    private readonly logger: Logger,
  ) {}

  /** Resources of `live` (enabled servers whose last discovery succeeded, that the caller sees). */
  listResources(live: GatewayServer[]): Promise<Item[]> {
    return this.list(live, 'resources');
  }

  /** `usable`: the caller's enabled server by id, or the gateway's error. */
  readResource(uri: string, usable: (id: string) => GatewayServer, on: CallOn = {}): Promise<Item> {
    const target = unwrapResourceUri(uri);
    const s = usable(target.server);
    return this.upstreams.withCall(s, on, async (conn, meta) =>
      wrapReadResult(
        s.id,
        await conn.request('resources/read', withMeta({ uri: target.uri }, meta), s.timeoutMs, on.signal),
      ),
    );
  }

  listPrompts(live: GatewayServer[]): Promise<Item[]> {
    return this.list(live, 'prompts');
  }

  /** Resource templates, their URIs wrapped with the `{...}` expressions kept (passthrough.ts). */
  listResourceTemplates(live: GatewayServer[]): Promise<Item[]> {
    return this.list(live, 'resourceTemplates');
  }

  async getPrompt(name: string, args: Record<string, unknown>, at: Where, on: CallOn = {}): Promise<Item> {
    const target = await this.promptOwner(name, at);
    const s = at.usable(target.server);
    return this.upstreams.withCall(s, on, (conn, meta) =>
      conn.request(
        'prompts/get',
        withMeta({ name: target.name, arguments: args }, meta),
        s.timeoutMs,
        on.signal,
      ),
    );
  }

  /**
   * `completion/complete`, sent to the server that owns the prompt or resource template with the
   * upstream's own name or URI; a server that offers no completions has none (an empty list).
   */
  async complete(params: Item, at: Where, on: CallOn = {}): Promise<Item> {
    const ref = (params.ref ?? {}) as Item;
    const target =
      ref.type === 'ref/resource'
        ? (({ server, uri }) => ({ server, ref: { ...ref, uri } }))(unwrapResourceUri(String(ref.uri)))
        : (({ server, name }) => ({ server, ref: { ...ref, name } }))(
            await this.promptOwner(String(ref.name), at),
          );
    const s = at.usable(target.server);
    return this.upstreams.withCall(s, on, async (conn, meta) => {
      if (!conn.info.capabilities.completions)
        return { completion: { values: [], total: 0, hasMore: false } };
      const request = withMeta({ ...params, ref: target.ref }, meta);
      return conn.request('completion/complete', request, s.timeoutMs, on.signal);
    });
  }

  /**
   * A prompt's server and upstream name: `server/name`, or a bare name that exactly one of the
   * caller's live servers offers (clients that know a prompt by its upstream name).
   */
  private async promptOwner(name: string, at: Where): Promise<{ server: string; name: string }> {
    if (name.includes('/')) return splitPrefixed(name, 'prompt');
    const owners = (await this.listPrompts(at.live())).filter((p) => String(p.name).endsWith(`/${name}`));
    const servers = owners.map((p) => String(p.name).slice(0, -name.length - 1));
    if (servers.length === 1) return { server: servers[0]!, name };
    throw new CarteError(
      'bad_input',
      servers.length === 0
        ? `unknown prompt "${name.slice(0, 200)}"; prompts are named server/name (prompts/list names them)`
        : `prompt "${name.slice(0, 200)}" is offered by ${servers.join(', ')}; name it as server/name`,
    );
  }

  private list(live: GatewayServer[], kind: ListKind): Promise<Item[]> {
    const method = kind === 'resourceTemplates' ? 'resources/templates/list' : `${kind}/list`;
    // A per-user server's resources and prompts are each caller's own: not relayed yet.
    return listFromAll(
      live.filter((s) => !isPerUser(s)),
      (s) => this.upstreams.connection(s),
      kind,
      (id, err) => this.warn(id, method, err),
    );
  }

  private warn(server: string, what: string, err: unknown): void {
    this.logger.warn(`[${server}] ${what} failed: ${operatorMessage(err)}`);
  }
}

/** `params` with `meta` (the upstream's log level, request-log.ts) merged into its `_meta`. */
export function withMeta(params: Item, meta: Item): Item {
  if (Object.keys(meta).length === 0) return params;
  const own = typeof params._meta === 'object' && params._meta !== null ? (params._meta as Item) : {};
  return { ...params, _meta: { ...own, ...meta } };
}
