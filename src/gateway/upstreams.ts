import {
  applyDiscovery,
  syncServer,
  type Discovery,
  type RecordLimits,
  type SyncReport,
} from '../catalog/index.js';
import { CarteError } from '../errors.js';
import type { Store } from '../store/index.js';
import { UpstreamPool, type Logger, type UpstreamConnection } from '../upstream/index.js';
import type { GatewayServer } from './types.js';

/** Connections and discovery for the configured servers; keeps the stored catalog in step. */
export class Upstreams {
  private readonly pool = new UpstreamPool();
  private readonly relisting = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly limits: RecordLimits,
    private readonly onCatalogChange: () => void,
  ) {}

  /** The live connection, opened on first use; a fresh connection re-lists its tools. */
  async connection(server: GatewayServer, relist = true): Promise<UpstreamConnection> {
    const known = await this.pool.peek(server.id);
    if (known) return known;
    const conn = await this.pool.connect(server.id, server.target, {
      timeoutMs: server.discoveryTimeoutMs,
      logger: this.logger,
      knownEra: this.store.servers.get(server.id)?.protocolEra ?? null,
      onToolsChanged: () => this.relist(server),
    });
    // A list_changed sent right after initialize can be lost (MCP-NOTES): re-list on every connect.
    if (relist) this.relist(server);
    return conn;
  }

  /** Connects and lists every tool, all within the server's discovery timeout. */
  async discover(server: GatewayServer): Promise<Discovery> {
    const deadline = Date.now() + server.discoveryTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(
          new CarteError(
            'timeout',
            `server "${server.id}" did not finish discovery within ${server.discoveryTimeoutMs} ms`,
          ),
        );
      }, server.discoveryTimeoutMs);
    });
    const work = (async () => {
      const conn = await this.connection(server, false);
      const tools = await conn.listTools(Math.max(1, deadline - Date.now()));
      return { tools, protocolEra: conn.info.protocolEra, ...pickInfo(conn) };
    })();
    try {
      return await Promise.race([work, timeout]);
    } catch (err) {
      await this.pool.close(server.id);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Discovers one server and writes the result to the store. */
  async sync(server: GatewayServer): Promise<SyncReport> {
    const report = await syncServer(this.store, server.id, () => this.discover(server), {
      limits: this.limits,
    });
    this.onCatalogChange();
    return report;
  }

  /** Re-lists after `list_changed`; overlapping notifications share one re-list. */
  relist(server: GatewayServer): void {
    if (this.closed || this.relisting.has(server.id)) return;
    const run = (async () => {
      try {
        const conn = await this.connection(server, false);
        const tools = await conn.listTools(server.discoveryTimeoutMs);
        const report = applyDiscovery(
          this.store,
          server.id,
          { tools, protocolEra: conn.info.protocolEra, ...pickInfo(conn) },
          { limits: this.limits },
        );
        this.logger.info(
          `[${server.id}] tool list changed: ${report.toolCount} tools (+${report.added} ~${report.changed} -${report.removed})`,
        );
        this.onCatalogChange();
      } catch (err) {
        this.logger.warn(`[${server.id}] re-list after list_changed failed: ${(err as Error).message}`);
      } finally {
        this.relisting.delete(server.id);
      }
    })();
    this.relisting.set(server.id, run);
  }

  /** Waits for re-lists in flight (tests and shutdown). */
  async settle(): Promise<void> {
    await Promise.all(this.relisting.values());
  }

  isConnected(id: string): boolean {
    return this.pool.connectedIds().includes(id);
  }

  async close(id?: string): Promise<void> {
    if (!id) this.closed = true; // no re-list may reopen a connection once the gateway closes
    await this.settle();
    await (id ? this.pool.close(id) : this.pool.closeAll());
  }
}

function pickInfo(conn: UpstreamConnection): Omit<Discovery, 'tools' | 'protocolEra'> {
  const i = conn.info;
  return {
    ...(i.serverName ? { serverName: i.serverName } : {}),
    ...(i.serverVersion ? { serverVersion: i.serverVersion } : {}),
    ...(i.instructions ? { instructions: i.instructions } : {}),
  };
}
