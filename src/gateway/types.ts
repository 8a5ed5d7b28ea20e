import type { UpstreamTarget } from '../upstream/index.js';
import type { DiscoveryStatus } from '../store/index.js';
import type { ServerState } from './lifecycle.js';
import type { SearchMeta } from './search-options.js';

/** A configured server as the gateway sees it (built from the config by `serversFromConfig`). */
export interface GatewayServer {
  id: string;
  enabled: boolean;
  /** Bound on one tool call (progress resets it). */
  timeoutMs: number;
  /** Bound on connect + listing. */
  discoveryTimeoutMs: number;
  /** Close the connection after this long without calls (0 = never). */
  idleTimeoutMs: number;
  /** Calls that may run at once, and calls that may wait for a slot. */
  maxConcurrency: number;
  maxQueue: number;
  /** Hash of what identifies the upstream (command, args, env, cwd, url, headers). */
  configHash: string;
  target: UpstreamTarget;
  /** How the target reads to a person, with secrets masked. */
  display: string;
  description?: string;
}

/** One server in `carte servers` and `carte doctor`: operational detail, never shown to agents. */
export interface ServerSummary {
  id: string;
  enabled: boolean;
  status: DiscoveryStatus | 'disabled';
  /** Runtime state: configured, cached, starting, ready, degraded, failed or stopped. */
  state: ServerState;
  /** Calls running and waiting now. */
  activeCalls: number;
  queuedCalls: number;
  toolCount: number;
  connected: boolean;
  lastDiscoveryAt: string | null;
  lastError: string | null;
  target: string;
  description?: string;
}

/** A server as an agent sees it: nothing of the operator's machine (see agent-view.ts). */
export interface AgentServer {
  id: string;
  description?: string;
  /** Tools of this server the caller may see. */
  toolCount: number;
  /** Whether its tools can be called now; when not, `reason` says why. */
  usable: boolean;
  reason?: string;
}

/** One ranked search result. */
export interface SearchResult {
  key: string;
  server: string;
  name: string;
  title?: string;
  summary: string;
  relevance: number;
}

/** Ranked results and how the search was answered (strategy, providers, fallbacks). */
export interface SearchOutcome {
  results: SearchResult[];
  meta: SearchMeta;
}

/** A tool in a server's menu page. */
export interface ToolSummary {
  key: string;
  title?: string;
  summary: string;
}

/** `browse_tools`: the server list, or one server's tools, paged. */
export type BrowseResult =
  | { kind: 'servers'; servers: AgentServer[] }
  | {
      kind: 'tools';
      server: string;
      usable: boolean;
      reason?: string;
      total: number;
      tools: ToolSummary[];
      nextCursor?: string;
    };

/** Everything known about one tool. */
export interface ToolDetail {
  key: string;
  server: string;
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  execution?: unknown;
  icons?: unknown;
  _meta?: unknown;
  /** Set when the stored schema is a reduced copy of one over the size limit. */
  schemaTruncatedFromBytes?: number;
  serverStatus: ServerSummary['status'];
  firstSeenAt: string;
  lastSeenAt: string;
}

/** A progress update to relay to whoever asked for the call. */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface CallRequest {
  signal?: AbortSignal;
  onProgress?: (p: CallProgress) => void;
  /** The downstream request's `_meta` (its progress token is not forwarded; the SDK sets its own). */
  meta?: Record<string, unknown>;
}

/** The upstream's result, passed through verbatim (`content`, `structuredContent`, `isError`, `_meta`). */
export type CallOutcome = Record<string, unknown>;
