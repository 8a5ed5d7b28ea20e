import type { UpstreamConnection } from './connection.js';
import type { ConnectOptions, UpstreamTarget } from './types.js';

interface Entry {
  targetKey: string;
  pending: Promise<UpstreamConnection>;
  /** The connection once it opened. */
  open?: UpstreamConnection;
}

/**
 * One connection per server, however many callers ask at once: concurrent requests for the same
 * server share one connect (no process storms); a closed connection is replaced on next use.
 */
export class UpstreamPool {
  private readonly entries = new Map<string, Entry>();

  /** Returns the live connection for `serverId`, opening one if needed. */
  async connect(
    serverId: string,
    target: UpstreamTarget,
    options: ConnectOptions,
  ): Promise<UpstreamConnection> {
    const targetKey = JSON.stringify(target);
    const existing = this.entries.get(serverId);
    if (existing && existing.targetKey === targetKey) {
      const conn = await existing.pending.catch(() => undefined);
      if (conn && !conn.isClosed) return conn;
      if (this.entries.get(serverId) !== existing) return this.connect(serverId, target, options);
    }
    if (existing) await this.close(serverId);
    const entry: Entry = {
      targetKey,
      pending: openConnection(serverId, target, {
        ...options,
        onClose: (expected, limit) => {
          if (this.entries.get(serverId) === entry) this.entries.delete(serverId);
          options.onClose?.(expected, limit);
        },
      }),
    };
    this.entries.set(serverId, entry);
    entry.pending.then(
      (conn) => (entry.open = conn),
      () => undefined,
    );
    entry.pending.catch(() => {
      if (this.entries.get(serverId) === entry) this.entries.delete(serverId);
    });
    return entry.pending;
  }

  /** The open connection for a server, if there is one (never starts anything). */
  async peek(serverId: string): Promise<UpstreamConnection | undefined> {
    const conn = await this.entries.get(serverId)?.pending.catch(() => undefined);
    return conn && !conn.isClosed ? conn : undefined;
  }

  /** The connections open now (those still connecting are left out). */
  openConnections(): { id: string; conn: UpstreamConnection }[] {
    const out: { id: string; conn: UpstreamConnection }[] = [];
    for (const [id, entry] of this.entries)
      if (entry.open && !entry.open.isClosed) out.push({ id, conn: entry.open });
    return out;
  }

  connectedIds(): string[] {
    return [...this.entries.keys()];
  }

  async close(serverId: string): Promise<void> {
    const entry = this.entries.get(serverId);
    this.entries.delete(serverId);
    const conn = await entry?.pending.catch(() => undefined);
    await conn?.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.close(id)));
  }
}

/**
 * Loads the client SDK only when a connection is first needed: catalog-only commands (search,
 * servers, describe) never start an upstream and so never pay for loading it.
 */
async function openConnection(
  serverId: string,
  target: UpstreamTarget,
  options: ConnectOptions,
): Promise<UpstreamConnection> {
  const { UpstreamConnection } = await import('./connection.js');
  return UpstreamConnection.open(serverId, target, options);
}
