// Direct mode (issue 14, item 6): for clients that prefer real tools, `tools/list` shows the hot
// tools themselves under provider-safe names, plus `search_tools`; tools that searches find join
// the list (up to `maxTools`, least recently used dropped) and the client is told the list
// changed. Names come from the whole visible catalog (direct-names.ts), so exposing one tool never
// renames another, and they are stable across restarts for the same catalog.
import type { CallerContext, CodeLimits, Gateway } from '../gateway/index.js';
import { DirectExposure } from './direct-exposure.js';
import { directNames } from './direct-names.js';

export interface ExposureOptions {
  mode: 'meta' | 'direct';
  maxTools: number;
  /** run_code (meta mode only): listed when enabled, with these limits. */
  code?: Partial<CodeLimits> & { enabled: boolean };
}

export class DirectMode {
  private names = new Map<string, string>();
  private keysByName = new Map<string, string>();
  private readonly exposure: DirectExposure;
  private namedFor: readonly string[] | undefined;

  constructor(
    private readonly gateway: Gateway,
    private readonly caller: CallerContext,
    maxTools: number,
  ) {
    this.exposure = new DirectExposure({ maxTools });
    this.exposure.seed(gateway.hotToolKeys(caller));
  }

  /** Re-reads names after a catalog change; drops exposed tools that are gone. True if the list changed. */
  refresh(): boolean {
    const before = this.listing();
    this.rename();
    const listed = new Set(this.gateway.listedToolKeys(this.caller));
    const kept = this.exposure.keys().filter((k) => listed.has(k));
    if (kept.length !== this.exposure.size) this.exposure.seed(kept);
    return JSON.stringify(before) !== JSON.stringify(this.listing());
  }

  /** The exposed tools as MCP tool entries, under their direct names. */
  async tools(): Promise<Record<string, unknown>[]> {
    this.rename();
    return (await this.gateway.toolDefinitions(this.caller, this.exposure.keys())).flatMap((d) => {
      const name = this.names.get(d.key);
      if (name === undefined) return [];
      return [
        {
          name,
          ...(d.title ? { title: d.title } : {}),
          description: d.description ?? '',
          inputSchema: d.inputSchema,
          ...(d.outputSchema ? { outputSchema: d.outputSchema } : {}),
          ...(d.annotations ? { annotations: d.annotations } : {}),
        },
      ];
    });
  }

  /** The catalog key behind an exposed direct name, or undefined. */
  keyOf(name: string): string | undefined {
    this.rename();
    const key = this.keysByName.get(name);
    return key !== undefined && this.exposure.has(key) ? key : undefined;
  }

  /** The direct name of a key (for search results). */
  nameOf(key: string): string | undefined {
    this.rename();
    return this.names.get(key);
  }

  /** Search found these (best first) or one was called: expose them. True if the list changed. */
  touch(keys: readonly string[]): boolean {
    return this.exposure.touch(keys.filter((k) => this.names.has(k)));
  }

  private listing(): string[] {
    return this.exposure.keys().map((k) => this.names.get(k) ?? k);
  }

  private rename(): void {
    const keys = this.gateway.listedToolKeys(this.caller);
    if (keys === this.namedFor) return; // the policy's array is new after every catalog change
    this.namedFor = keys;
    this.names = directNames(keys);
    this.keysByName = new Map([...this.names].map(([k, n]) => [n, k]));
  }
}
