import { operatorMessage } from '../../errors.js';
import type { Logger } from '../../upstream/index.js';
import { listFromAll, splitPrefixed, unwrapResourceUri, wrapReadResult } from './passthrough.js';
import type { GatewayServer } from '../shared/types.js';
import type { Upstreams } from './upstreams.js';

type Item = Record<string, unknown>;

/** Upstream resources and prompts behind the gateway facade (server-prefixed names and URIs). */
export class PassthroughCalls {
  constructor(
    private readonly upstreams: Upstreams,
    private readonly logger: Logger,
  ) {}

  /** Resources of `live` (enabled servers whose last discovery succeeded, that the caller sees). */
  listResources(live: GatewayServer[]): Promise<Item[]> {
    return listFromAll(
      live,
      (s) => this.upstreams.connection(s),
      'resources',
      (id, err) => this.warn(id, 'resources/list', err),
    );
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
    return listFromAll(
      live,
      (s) => this.upstreams.connection(s),
      'prompts',
      (id, err) => this.warn(id, 'prompts/list', err),
    );
  }

  getPrompt(
    name: string,
    args: Record<string, unknown>,
    usable: (id: string) => GatewayServer,
    signal?: AbortSignal,
  ): Promise<Item> {
    const target = splitPrefixed(name, 'prompt');
    const s = usable(target.server);
    return this.upstreams.withCall(s, signal, (conn) =>
      conn.request('prompts/get', { name: target.name, arguments: args }, s.timeoutMs, signal),
    );
  }

  private warn(server: string, what: string, err: unknown): void {
    this.logger.warn(`[${server}] ${what} failed: ${operatorMessage(err)}`);
  }
}
