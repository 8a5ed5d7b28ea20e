import type { SandboxSpec } from './sandbox/types.js';
import type { OAuthSettings, UpstreamOAuth } from './oauth/types.js';
import type { Elicitor } from './elicitation.js';

/** How to reach one upstream, already resolved (env interpolated) by the caller. */
export type UpstreamTarget =
  | {
      kind: 'stdio';
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd?: string;
      /** Run it confined (docs/sandbox.md); absent: unconfined. */
      sandbox?: SandboxSpec;
    }
  | {
      kind: 'remote';
      url: string;
      headers: Record<string, string>;
      transport?: 'streamable-http' | 'sse';
      /** The config's `oauth` keys (docs/upstream-auth.md); absent: authorization code, DCR. */
      oauth?: OAuthSettings;
    };

/** Minimal logger the upstream layer writes to (never stdout). */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** The protocol version negotiated last time and, for the modern era, the server's discover result. */
export interface KnownEra {
  version: string;
  discover?: unknown;
}

/** Options for one connection. */
export interface ConnectOptions {
  /** Bound on connect + first listing. */
  timeoutMs: number;
  logger: Logger;
  /** What the last connection negotiated; lets a reconnect skip the era probe (a sibling spawn on stdio). */
  known?: KnownEra | null;
  /** Called (debounced by the caller) when the upstream says its tool list changed. */
  onToolsChanged?: () => void;
  /** An upstream's log message (`notifications/message`) or `notifications/resources/updated`, as sent. */
  onNotification?: (method: UpstreamNotification, params: Record<string, unknown>) => void;
  /** A lost HTTP session was replaced by a new one: its log level and subscriptions are gone. */
  onReopen?: () => void;
  /**
   * Called once when the connection closes; `expected` is false when the upstream went away by
   * itself, and `limit` names the sandbox limit that stopped it, if one did.
   */
  onClose?: (expected: boolean, limit: string | null) => void;
  /** tools/call to a 2025-era stdio upstream without the SDK's request funnel (default true; off compares the two). */
  plainCalls?: boolean;
  /** The server's OAuth client state (remote targets): tokens are sent, refreshed and saved through it. */
  oauth?: UpstreamOAuth;
  /** Largest message the upstream may send, in bytes (stdio read buffer; checked on HTTP results). */
  maxMessageBytes?: number;
  /** Declare form elicitation to the upstream: each call then answers it with its `elicit` (elicitation.ts). */
  elicitation?: boolean;
}

/** The upstream notifications the gateway relays to its downstream sessions. */
export type UpstreamNotification = 'notifications/message' | 'notifications/resources/updated';

import type { CallOptions as PlainCallOptions } from './plain/types.js';
export type { ProgressUpdate } from './plain/types.js';

/** Per-call options: the plain path's, and who answers a form elicitation during the call. */
export interface CallOptions extends PlainCallOptions {
  /** Answers a form elicitation the upstream sends during this call; absent: declined. */
  elicit?: Elicitor;
}

/** The MCP log levels, least severe first (RFC 5424's order). */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
