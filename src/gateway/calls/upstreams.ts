import {
  applyDiscovery,
  syncServer,
  type Discovery,
  type RecordLimits,
  type SyncReport,
} from '../../catalog/index.js';
import { CarteError, toCarteError } from '../../errors.js';
import type { ServerRow, Store } from '../../store/index.js';
import {
  UpstreamPool,
  type KnownEra,
  type Logger,
  type UpstreamConnection,
  type UpstreamNotification,
} from '../../upstream/index.js';
import { LIFECYCLE_DEFAULTS, ServerLife, type LifecycleOptions } from './lifecycle.js';
import { upstreamOAuth } from './oauth-vault.js';
import { isPerUser, listingSubject, PerUserConnections, withoutTokensOf } from './per-user.js';
import { LogTaps } from './request-log.js';
import type { GatewayServer, RequestLog, ServerState } from '../shared/types.js';

/** Limits the upstream layer enforces (from the config's `limits`). */
export interface UpstreamLimits extends RecordLimits {
  maxResultBytes: number;
}

/** Who hears of upstream notifications and new connections (upstream-events.ts). */
export interface UpstreamWatch {
  notify(serverId: string, method: UpstreamNotification, params: Record<string, unknown>): void;
  /** A connection opened: set its log level and subscriptions again. */
  connected(server: GatewayServer, conn: UpstreamConnection): void;
  /** Whether a server must stay up while idle (a session subscribed to one of its resources). */
  holds(serverId: string): boolean;
}

/**
 * Connections, discovery and the life of each server: lazy start, one connection per server,
 * restart with backoff after a crash, a circuit breaker, call slots, idle close; keeps the
 * stored catalog in step with every listing.
 */
export class Upstreams {
  private readonly pool = new UpstreamPool();
  private readonly lives = new Map<string, ServerLife>();
  private readonly relisting = new Map<string, Promise<void>>();
  /** Servers to re-list once more after the one running, with the subject whose connection asked. */
  private readonly relistAgain = new Map<string, string | undefined>();
  private closed = false;
  private watcher?: UpstreamWatch;
  /** The server each running connection was opened for. */
  private readonly opened = new Map<string, GatewayServer>();
  /** 2026-era requests in flight that asked for log messages (request-log.ts). */
  private readonly logTaps = new LogTaps();
  /** Connections of per-user servers, one per (server, subject), each with its subject's vault (per-user.ts). */
  readonly perUser: PerUserConnections;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly limits: UpstreamLimits,
    private readonly onCatalogChange: () => Promise<void>,
    private readonly lifecycle: LifecycleOptions = LIFECYCLE_DEFAULTS,
    /** Connections declare form elicitation: calls answer it (GatewayOptions.answersElicitation). */
    private readonly answersElicitation = false,
  ) {
    this.perUser = new PerUserConnections((s, subject, pool) => this.openPerUser(s, subject, pool), logger);
  }

  life(id: string): ServerLife {
    let life = this.lives.get(id);
    if (!life) this.lives.set(id, (life = new ServerLife(id, this.lifecycle)));
    return life;
  }

  /**
   * The live connection, opened on first use (after any backoff); a fresh one re-lists its tools.
   * A per-user server's is `subject`'s own; without a subject it is refused (per-user.ts).
   */
  async connection(
    server: GatewayServer,
    opts: { relist?: boolean; explicit?: boolean; subject?: string | undefined } = {},
  ): Promise<UpstreamConnection> {
    if (isPerUser(server)) return this.perUser.call(server, opts.subject, (c) => Promise.resolve(c));
    const known = await this.pool.peek(server.id);
    if (known) return known;
    this.refuseWhenClosed(server.id);
    const life = this.life(server.id);
    if (!opts.explicit) await life.beforeStart();
    life.starting = true;
    try {
      const conn = await this.pool.connect(server.id, server.target, {
        timeoutMs: server.discoveryTimeoutMs,
        logger: this.logger,
        known: await this.knownEra(server.id),
        maxMessageBytes: this.limits.maxResultBytes,
        ...(this.answersElicitation ? { elicitation: true } : {}),
        ...(server.target.kind === 'remote'
          ? { oauth: upstreamOAuth(this.store, server, { logger: this.logger })! }
          : {}),
        onToolsChanged: () => this.relist(server),
        onClose: (expected, limit) => this.onClosed(server, expected, limit),
        onNotification: (method, params) => {
          if (method === 'notifications/message') this.logTaps.hear(server.id, params);
          this.watcher?.notify(server.id, method, params);
        },
        onReopen: () => void this.pool.peek(server.id).then((c) => c && this.watcher?.connected(server, c)),
      });
      this.opened.set(server.id, server);
      this.watcher?.connected(server, conn);
      // A list_changed sent right after initialize can be lost (MCP-NOTES): re-list on every connect.
      // Not where connections declare form elicitation (`carte call`): an upstream may list more
      // tools to such a client, and the catalog is every face's, kept by clients without it.
      if (opts.relist !== false && !this.answersElicitation) this.relist(server);
      return conn;
    } catch (err) {
      const e = toCarteError(err);
      // Wanting a sign-in is not a crash: no backoff, so the first call after `carte auth login` goes.
      if (e.code === 'needs_sign_in') await this.markNeedsSignIn(server.id, e.operatorMessage);
      else life.recordFailure(e.operatorMessage);
      throw err;
    } finally {
      life.starting = false;
    }
  }

  /**
   * Every running remote connection reads its sign-in again: one made by `carte auth login` (or
   * forgotten by `carte auth logout`) in another process or replica is used from the next request.
   */
  async reloadSignIns(): Promise<void> {
    const shared = this.runningConnections().filter(({ server }) => server.target.kind === 'remote');
    const own = this.perUser.openConnections();
    await Promise.all(
      [...shared.map(({ server, conn }) => ({ serverId: server.id, conn })), ...own].map(
        ({ serverId, conn }) =>
          conn
            .reloadSignIn()
            .catch((err: Error) =>
              this.logger.warn(`[${serverId}] cannot read its sign-in again: ${err.message}`),
            ),
      ),
    );
  }

  /** Sets who hears of upstream notifications and new connections (one watcher). */
  watch(watcher: UpstreamWatch): void {
    this.watcher = watcher;
  }

  /** The running connection of a server, if any (never starts one). */
  running(id: string): Promise<UpstreamConnection | undefined> {
    return this.pool.peek(id);
  }

  /** The running connections with their servers (never starts one). */
  runningConnections(): { server: GatewayServer; conn: UpstreamConnection }[] {
    return this.pool.openConnections().flatMap(({ id, conn }) => {
      const server = this.opened.get(id);
      return server ? [{ server, conn }] : [];
    });
  }

  /**
   * Runs one call in a slot of the server's concurrency limit, then arms the idle timer. With
   * `log` (a 2026-era request that asked for log messages), the server's log messages reach it
   * while the call runs, and `fn` gets the `_meta` that asks the upstream for them. A per-user
   * server's call runs on `subject`'s own connection (per-user.ts).
   */
  async withCall<T>(
    server: GatewayServer,
    on: { signal?: AbortSignal | undefined; log?: RequestLog | undefined; subject?: string | undefined },
    fn: (conn: UpstreamConnection, meta: Record<string, unknown>) => Promise<T>,
  ): Promise<T> {
    const life = this.life(server.id);
    const release = await life.acquire(server.maxConcurrency, server.maxQueue, on.signal);
    const untap = on.log ? this.logTaps.add(server.id, on.log) : undefined;
    try {
      const call = (conn: UpstreamConnection) =>
        fn(conn, on.log ? conn.extras.logLevelMeta(on.log.level) : {});
      const result = isPerUser(server)
        ? await this.perUser.call(server, on.subject, call)
        : await call(await this.connection(server));
      life.recordSuccess();
      return result;
    } catch (err) {
      // The close handler counted the failure; keep the precise reason (with the stderr tail).
      // A fail-fast refusal of an open circuit is not a new reason: it quotes the last one.
      const e = toCarteError(err);
      const refused = e.details?.circuitOpen === true;
      if (e.code === 'upstream_unavailable' && life.failures > 0 && !refused)
        life.lastError = e.operatorMessage;
      // A sign-in lost mid-connection (a refused refresh, a revoked token): listings say so. A
      // per-user server's is one caller's: the server stays usable for the others.
      if (e.code === 'needs_sign_in' && !isPerUser(server))
        await this.markNeedsSignIn(server.id, e.operatorMessage);
      throw err;
    } finally {
      untap?.();
      release();
      this.armIdle(server);
    }
  }

  /**
   * Connects and lists every tool, all within the server's discovery timeout. A per-user server
   * lists with `subject`'s sign-in, else with the most recently linked one's (per-user.ts).
   */
  async discover(server: GatewayServer, subject?: string): Promise<Discovery> {
    const whose = isPerUser(server) ? (subject ?? (await listingSubject(this.store, server.id))) : undefined;
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
      const conn = await this.connection(server, { relist: false, explicit: true, subject: whose });
      const tools = await conn.listTools(Math.max(1, deadline - Date.now()));
      return { tools, protocolEra: conn.info.protocolEra, ...pickInfo(conn) };
    })();
    try {
      const discovery = await Promise.race([work, timeout]);
      this.life(server.id).recordSuccess();
      this.armIdle(server);
      return discovery;
    } catch (err) {
      await (whose === undefined ? this.pool.close(server.id) : this.perUser.close(server.id, whose));
      // A per-user listing's error, read by others, without the person's tokens (per-user.ts).
      throw await withoutTokensOf(this.store, { serverId: server.id, subject: whose }, err);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Discovers one server and writes the result to the store (a per-user one: see discover). */
  async sync(server: GatewayServer, subject?: string): Promise<SyncReport> {
    // One replica at a time syncs a server of a shared store; the others wait, then sync again.
    const report = await this.store.exclusive(`sync:${server.id}`, () =>
      syncServer(this.store, server.id, () => this.discover(server, subject), {
        limits: this.limits,
        serverDescription: server.description,
        pin: server.pin,
      }),
    );
    await this.onCatalogChange();
    return report;
  }

  /**
   * Re-lists after `list_changed` (on a per-user server, through the connection of the `subject`
   * it came from); a notification during a re-list triggers one more after it.
   */
  relist(server: GatewayServer, subject?: string): void {
    if (this.closed) return;
    if (this.relisting.has(server.id)) {
      this.relistAgain.set(server.id, subject);
      return;
    }
    const run = (async () => {
      try {
        const conn = await this.connection(server, { relist: false, subject });
        const tools = await conn.listTools(server.discoveryTimeoutMs);
        const report = await this.store.exclusive(`sync:${server.id}`, () =>
          applyDiscovery(
            this.store,
            server.id,
            { tools, protocolEra: conn.info.protocolEra, ...pickInfo(conn) },
            { limits: this.limits, serverDescription: server.description, pin: server.pin },
          ),
        );
        this.logger.info(
          `[${server.id}] tool list changed: ${report.toolCount} tools (+${report.added} ~${report.changed} -${report.removed})`,
        );
        await this.onCatalogChange();
      } catch (err) {
        // A person's re-list may fail with their token echoed: the log gets it cut (per-user.ts).
        const shown = await withoutTokensOf(this.store, { serverId: server.id, subject }, err);
        this.logger.warn(`[${server.id}] re-list after list_changed failed: ${(shown as Error).message}`);
      } finally {
        this.relisting.delete(server.id);
        if (this.relistAgain.has(server.id)) {
          const again = this.relistAgain.get(server.id);
          this.relistAgain.delete(server.id);
          this.relist(server, again);
        }
      }
    })();
    this.relisting.set(server.id, run);
  }

  /** Waits for re-lists in flight (tests and shutdown). */
  async settle(): Promise<void> {
    while (this.relisting.size > 0) await Promise.all(this.relisting.values());
  }

  isConnected(id: string): boolean {
    return this.pool.connectedIds().includes(id);
  }

  /** The lifecycle state shown to people; never starts anything. */
  state(server: GatewayServer, row: ServerRow | undefined): ServerState {
    if (!server.enabled || this.closed) return 'stopped';
    const life = this.life(server.id);
    if (life.starting) return 'starting';
    // Before `ready`: a connection may stay open after its sign-in was refused or forgotten.
    if (row?.status === 'needs_sign_in') return 'needs_sign_in';
    if (this.isConnected(server.id)) return life.failures > 0 ? 'degraded' : 'ready';
    if (life.circuitOpen() || (row?.status === 'failed' && life.failures === 0 && row.toolCount === 0))
      return 'failed';
    if (life.failures > 0) return 'degraded';
    return row?.status === 'success' || (row?.toolCount ?? 0) > 0 ? 'cached' : 'configured';
  }

  async close(id?: string): Promise<void> {
    if (!id) this.closed = true; // no re-list may reopen a connection once the gateway closes
    await this.settle();
    if (id) this.lives.get(id)?.clearIdle();
    else this.lives.forEach((l) => l.clearIdle());
    await Promise.all([id ? this.pool.close(id) : this.pool.closeAll(), this.perUser.close(id)]);
  }

  /** Records that the server wants a sign-in, so listings say so (its cached tools stay). */
  private async markNeedsSignIn(id: string, error: string): Promise<void> {
    const row = await this.store.servers.get(id);
    if (row?.status === 'needs_sign_in') return;
    await this.store.servers
      .recordDiscovery(id, { status: 'needs_sign_in', at: new Date().toISOString(), error })
      .catch((err: Error) =>
        this.logger.warn(`[${id}] cannot record that it needs a sign-in: ${err.message}`),
      );
    await this.onCatalogChange();
  }

  /** A per-user server's connection for `subject`, with their vault; found in `pool` when open. */
  private async openPerUser(
    server: GatewayServer,
    subject: string,
    pool: UpstreamPool,
  ): Promise<UpstreamConnection> {
    const open = await pool.peek(server.id);
    if (open) return open;
    this.refuseWhenClosed(server.id);
    // No relay of its notifications: they are one caller's, and downstream sessions are everyone's.
    return pool.connect(server.id, server.target, {
      timeoutMs: server.discoveryTimeoutMs,
      logger: this.logger,
      known: await this.knownEra(server.id),
      maxMessageBytes: this.limits.maxResultBytes,
      oauth: upstreamOAuth(this.store, server, { logger: this.logger, subject })!,
      onToolsChanged: () => this.relist(server, subject),
    });
  }

  private refuseWhenClosed(id: string): void {
    if (this.closed)
      throw new CarteError(
        'upstream_unavailable',
        `the gateway is shutting down; server "${id}" was not started`,
      );
  }

  /** What the store remembers of the server's protocol era, for a probe-free reconnect. */
  private async knownEra(id: string): Promise<KnownEra | null> {
    const row = await this.store.servers.get(id);
    if (!row?.protocolEra) return null;
    return { version: row.protocolEra, ...(row.discoverResult ? { discover: row.discoverResult } : {}) };
  }

  private armIdle(server: GatewayServer): void {
    this.life(server.id).scheduleIdle(server.idleTimeoutMs, () => {
      // A session waits for this server's resource updates: keep it up.
      if (this.watcher?.holds(server.id)) return;
      this.logger.info(`[${server.id}] idle for ${server.idleTimeoutMs} ms: closing`);
      void this.pool.close(server.id);
    });
  }

  private onClosed(server: GatewayServer, expected: boolean, limit: string | null): void {
    if (expected || this.closed) return;
    const life = this.life(server.id);
    life.recordFailure(limit ? `stopped at ${limit}` : `the connection closed unexpectedly`);
    this.logger.warn(
      `[${server.id}] ${limit ? `was stopped at ${limit}` : 'exited or dropped the connection'} (${life.failures} in a row); it restarts on next use`,
    );
  }
}

/** The server's name, version, instructions and discover result, those it gave. */
function pickInfo(conn: UpstreamConnection): Omit<Discovery, 'tools' | 'protocolEra'> {
  const { serverName, serverVersion, instructions, discoverResult } = conn.info;
  const given = Object.entries({ serverName, serverVersion, instructions, discoverResult });
  return Object.fromEntries(given.filter(([, v]) => v));
}
