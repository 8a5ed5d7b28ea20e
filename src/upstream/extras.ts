// An upstream's log level and resource subscriptions, in the era it speaks (docs/mcp.md,
// "Logging and resource subscriptions"). A 2025-era upstream takes `logging/setLevel` and
// `resources/subscribe`; a 2026-07-28 one has no session to hold either: its subscriptions are
// `subscriptions/listen` streams (one per URI here), and its log level travels in each request's
// envelope: Carte sets it on the requests of a downstream that asked for log messages
// (`logLevelMeta`), and on no other.
import { LOG_LEVEL_META_KEY, type Client } from '@modelcontextprotocol/client';
import { LOG_LEVELS, type LogLevel } from './types.js';

export { LOG_LEVELS, type LogLevel };

/** The first stateless revision (MCP-NOTES). */
const MODERN_REVISION = '2026-07-28';

type Send = (method: string, params: Record<string, unknown>, timeoutMs: number) => Promise<unknown>;

interface Listening {
  close(): Promise<void>;
}

/** Log level and subscriptions of one connection; `client` is the current one (a redial replaces it). */
export class UpstreamExtras {
  private readonly listens = new Map<string, Promise<Listening | undefined>>();

  constructor(
    private readonly client: () => Client,
    private readonly era: () => string,
    private readonly capabilities: Record<string, unknown>,
    private readonly send: Send,
  ) {}

  /** Whether the upstream offers resource subscriptions at all. */
  get canSubscribe(): boolean {
    const resources = this.capabilities.resources as { subscribe?: unknown } | undefined;
    return resources?.subscribe === true;
  }

  /** Whether `logging/setLevel` means anything to this upstream (a 2025-era server that logs). */
  get takesLogLevel(): boolean {
    return this.capabilities.logging !== undefined && !this.modern();
  }

  /** Sets the upstream's log level (2025 era only; see the file's comment). */
  async setLogLevel(level: LogLevel, timeoutMs: number): Promise<void> {
    if (this.takesLogLevel) await this.send('logging/setLevel', { level }, timeoutMs);
  }

  /** The request `_meta` that asks a 2026-era upstream for its log messages at `level` (none for a 2025-era one). */
  logLevelMeta(level: LogLevel): Record<string, unknown> {
    return this.modern() ? { [LOG_LEVEL_META_KEY]: level } : {};
  }

  /** Subscribes to one resource's updates: `resources/subscribe`, or a listen stream in the 2026 era. */
  async subscribe(uri: string, timeoutMs: number): Promise<void> {
    if (!this.modern()) {
      await this.send('resources/subscribe', { uri }, timeoutMs);
      return;
    }
    if (this.listens.has(uri)) return;
    const opening = this.client()
      .listen({ resourceSubscriptions: [uri] }, { timeout: timeoutMs })
      .then((sub) => sub as Listening);
    this.listens.set(
      uri,
      opening.catch(() => undefined),
    );
    try {
      await opening;
    } catch (err) {
      this.listens.delete(uri);
      throw err;
    }
  }

  async unsubscribe(uri: string, timeoutMs: number): Promise<void> {
    if (!this.modern()) {
      await this.send('resources/unsubscribe', { uri }, timeoutMs);
      return;
    }
    const listening = this.listens.get(uri);
    this.listens.delete(uri);
    await (await listening)?.close();
  }

  /** Forgets the listen streams (a redial or close ended them). */
  reset(): void {
    this.listens.clear();
  }

  private modern(): boolean {
    const era = this.era();
    return /^\d{4}-\d{2}-\d{2}$/.test(era) && era >= MODERN_REVISION;
  }
}
