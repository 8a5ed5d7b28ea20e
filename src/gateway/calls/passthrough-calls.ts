import { CarteError, operatorMessage } from '../../errors.js';
import type { Logger } from '../../upstream/index.js';
import {
  listFromAll,
  splitPrefixed,
  unwrapResourceUri,
  wrapReadResult,
  type ListKind,
} from './passthrough.js';
import type { GatewayServer } from '../shared/types.js';
import type { Upstreams } from './upstreams.js';

type Item = Record<string, unknown>;

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
  readResource(uri: string, usable: (id: string) => GatewayServer, signal?: AbortSignal): Promise<Item> {
    const target = unwrapResourceUri(uri);
    const s = usable(target.server);
    return this.upstreams.withCall(s, signal, async (conn) =>
      wrapReadResult(s.id, await conn.request('resources/read', { uri: target.uri }, s.timeoutMs, signal)),
    );
  }

  listPrompts(live: GatewayServer[]): Promise<Item[]> {
    return this.list(live, 'prompts');
  }

  /** Resource templates, their URIs wrapped with the `{...}` expressions kept (passthrough.ts). */
  listResourceTemplates(live: GatewayServer[]): Promise<Item[]> {
    return this.list(live, 'resourceTemplates');
  }

  async getPrompt(
    name: string,
    args: Record<string, unknown>,
    at: Where,
    signal?: AbortSignal,
  ): Promise<Item> {
    const target = await this.promptOwner(name, at);
    const s = at.usable(target.server);
    return this.upstreams.withCall(s, signal, (conn) =>
      conn.request('prompts/get', { name: target.name, arguments: args }, s.timeoutMs, signal),
    );
  }

  /**
   * `completion/complete`, sent to the server that owns the prompt or resource template with the
   * upstream's own name or URI; a server that offers no completions has none (an empty list).
   */
  async complete(params: Item, at: Where, signal?: AbortSignal): Promise<Item> {
    const ref = (params.ref ?? {}) as Item;
    const target =
      ref.type === 'ref/resource'
        ? (({ server, uri }) => ({ server, ref: { ...ref, uri } }))(unwrapResourceUri(String(ref.uri)))
        : (({ server, name }) => ({ server, ref: { ...ref, name } }))(
            await this.promptOwner(String(ref.name), at),
          );
    const s = at.usable(target.server);
    return this.upstreams.withCall(s, signal, async (conn) => {
      if (!conn.info.capabilities.completions)
        return { completion: { values: [], total: 0, hasMore: false } };
      return conn.request('completion/complete', { ...params, ref: target.ref }, s.timeoutMs, signal);
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
    return listFromAll(
      live,
      (s) => this.upstreams.connection(s),
      kind,
      (id, err) => this.warn(id, method, err),
    );
  }

  private warn(server: string, what: string, err: unknown): void {
    this.logger.warn(`[${server}] ${what} failed: ${operatorMessage(err)}`);
  }
}
