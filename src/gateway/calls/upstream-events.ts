// Upstream log messages and resource updates, relayed to the downstream sessions that want them
// (docs/mcp.md, "Logging and resource subscriptions"). One upstream connection serves every
// session, so its log level is the most verbose any open session asked for, and each session
// filters at its own; a resource is subscribed upstream while one session at least holds it.
import { CarteError, operatorMessage } from '../../errors.js';
import { LOG_LEVELS, type LogLevel, type Logger, type UpstreamConnection } from '../../upstream/index.js';
import { wrapResourceUri } from './passthrough.js';
import { atOrAbove, fromServer } from './request-log.js';
import type { GatewayServer } from '../shared/types.js';
import type { Upstreams } from './upstreams.js';

/** A session's level until it sends `logging/setLevel`: everything but debug chatter. */
export const DEFAULT_LOG_LEVEL: LogLevel = 'info';

/** Where a downstream session takes what its upstreams send. */
export interface EventSink {
  /**
   * A log message, its `logger` prefixed with the server id (`everything` or `everything/<logger>`).
   * Absent (a 2026-era listen stream, which carries no log messages): the session hears none.
   */
  log?(params: Record<string, unknown>): void;
  /** A subscribed resource changed (its Carte URI). */
  updated(uri: string): void;
}

/** One downstream session's log level and subscriptions. */
export interface EventSession {
  setLevel(level: LogLevel): void;
  subscribe(server: GatewayServer, uri: string): Promise<void>;
  unsubscribe(server: GatewayServer, uri: string): Promise<void>;
  /** The session ended: its subscriptions go, and upstream too when it was the last subscriber. */
  close(): void;
}

interface Session {
  /** Undefined: the session takes no log messages and has no say in the upstream level. */
  level: LogLevel | undefined;
  visible: (serverId: string) => boolean;
  sink: EventSink;
  /** What it subscribed to, by `server\0uri`. */
  held: Map<string, { server: GatewayServer; uri: string }>;
}

const SEVERITY = new Map<string, number>(LOG_LEVELS.map((l, i) => [l, i]));

export class UpstreamEvents {
  private readonly sessions = new Set<Session>();
  /** `server\0uri` -> the sessions subscribed to it. */
  private readonly subscribers = new Map<string, Set<Session>>();
  /** The level last sent to the upstreams. */
  private upstreamLevel: LogLevel | undefined;

  constructor(
    private readonly upstreams: Upstreams,
    private readonly logger: Logger,
  ) {
    upstreams.watch({
      notify: (id, method, params) =>
        method === 'notifications/message' ? this.log(id, params) : this.updated(id, params),
      connected: (server, conn) => this.restore(server, conn),
      holds: (id) => this.serverHeld(id),
    });
  }

  /** Opens a session; `visible` says which servers its caller may hear from. */
  open(visible: (serverId: string) => boolean, sink: EventSink): EventSession {
    const s: Session = { level: sink.log ? DEFAULT_LOG_LEVEL : undefined, visible, sink, held: new Map() };
    this.sessions.add(s);
    this.levelChanged();
    return {
      setLevel: (level) => {
        if (!s.sink.log) return;
        s.level = level;
        this.levelChanged();
      },
      subscribe: (server, uri) => this.subscribe(s, server, uri),
      unsubscribe: (server, uri) => this.unsubscribe(s, server, uri),
      close: () => {
        this.sessions.delete(s);
        for (const { server, uri } of [...s.held.values()])
          this.unsubscribe(s, server, uri).catch((err: unknown) => {
            this.logger.debug(`[${server.id}] resources/unsubscribe ${uri} failed: ${operatorMessage(err)}`);
          });
        this.levelChanged();
      },
    };
  }

  private async subscribe(s: Session, server: GatewayServer, uri: string): Promise<void> {
    const key = `${server.id}\0${uri}`;
    if (s.held.has(key)) return;
    const conn = await this.upstreams.connection(server);
    if (!conn.extras.canSubscribe)
      throw new CarteError('bad_input', `server "${server.id}" does not offer resource subscriptions`);
    let set = this.subscribers.get(key);
    const first = !set;
    if (!set) this.subscribers.set(key, (set = new Set()));
    set.add(s);
    s.held.set(key, { server, uri });
    if (!first) return;
    try {
      await conn.extras.subscribe(uri, server.timeoutMs);
    } catch (err) {
      this.drop(s, key);
      throw err;
    }
  }

  private async unsubscribe(s: Session, server: GatewayServer, uri: string): Promise<void> {
    const key = `${server.id}\0${uri}`;
    if (!s.held.has(key) || !this.drop(s, key)) return;
    // The last subscriber went: unsubscribe upstream, if it is still running (a new one has none).
    const conn = await this.upstreams.running(server.id);
    await conn?.extras.unsubscribe(uri, server.timeoutMs);
  }

  /** Removes a session's hold; true when no session holds the resource any more. */
  private drop(s: Session, key: string): boolean {
    s.held.delete(key);
    const set = this.subscribers.get(key);
    set?.delete(s);
    if (set && set.size > 0) return false;
    this.subscribers.delete(key);
    return true;
  }

  private log(serverId: string, params: Record<string, unknown>): void {
    const message = fromServer(serverId, params);
    for (const s of this.sessions)
      if (s.level && atOrAbove(params.level, s.level) && s.visible(serverId)) s.sink.log?.(message);
  }

  private updated(serverId: string, params: Record<string, unknown>): void {
    if (typeof params.uri !== 'string') return;
    const set = this.subscribers.get(`${serverId}\0${params.uri}`);
    const uri = wrapResourceUri(serverId, params.uri);
    for (const s of set ?? []) if (s.visible(serverId)) s.sink.updated(uri);
  }

  /** The most verbose level of the open sessions, sent to every running upstream when it changes. */
  private levelChanged(): void {
    let min: number | undefined;
    for (const s of this.sessions) if (s.level) min = Math.min(min ?? Infinity, SEVERITY.get(s.level)!);
    const level = min === undefined ? undefined : LOG_LEVELS[min];
    if (level === undefined || level === this.upstreamLevel) return;
    this.upstreamLevel = level;
    for (const { server, conn } of this.upstreams.runningConnections()) this.sendLevel(server, conn, level);
  }

  /** A new connection to `server`: its log level and subscriptions, again. */
  private restore(server: GatewayServer, conn: UpstreamConnection): void {
    if (this.upstreamLevel) this.sendLevel(server, conn, this.upstreamLevel);
    for (const key of this.subscribers.keys()) {
      const [id, uri = ''] = key.split('\0');
      if (id !== server.id) continue;
      conn.extras.subscribe(uri, server.timeoutMs).catch((err: unknown) => {
        this.logger.warn(`[${server.id}] resources/subscribe ${uri} again failed: ${operatorMessage(err)}`);
      });
    }
  }

  private sendLevel(server: GatewayServer, conn: UpstreamConnection, level: LogLevel): void {
    conn.extras.setLogLevel(level, server.timeoutMs).catch((err: unknown) => {
      this.logger.debug(`[${server.id}] logging/setLevel ${level} failed: ${operatorMessage(err)}`);
    });
  }

  private serverHeld(id: string): boolean {
    for (const key of this.subscribers.keys()) if (key.startsWith(`${id}\0`)) return true;
    return false;
  }
}
