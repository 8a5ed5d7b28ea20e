import type { Elicitor, LogLevel, UpstreamTarget } from '../../upstream/index.js';
import type { DiscoveryStatus } from '../../store/index.js';
import type { SearchMeta } from './search-options.js';
import type { CategoryId } from '../../catalog/index.js';

/** The states a server goes through, as `carte servers` and the API show them. */
export const SERVER_STATES = [
  'configured',
  'cached',
  'starting',
  'ready',
  'degraded',
  'failed',
  'needs_sign_in',
  'stopped',
] as const;
export type ServerState = (typeof SERVER_STATES)[number];

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
  /** How far its tools' annotations are believed for call classes (config `trusted`). */
  trusted?: boolean;
  /** Pin tools and quarantine the ones that change (config `trust.pin`; absent: true). */
  pin?: boolean;
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
  /** How a stdio server is confined (docs/sandbox.md): null when it runs with the user's full rights; absent for remote servers. */
  sandbox?: SandboxView | null;
}

/** A sandbox as listings show it: its network grant and its limits. */
export interface SandboxView {
  network: string[];
  memoryMb?: number;
  maxProcesses?: number;
}

/** A server as an agent sees it: nothing of the operator's machine (see menu/agent-view.ts). */
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
  /** What `maxTokens` left out. */
  omitted?: OmittedNote;
}

/** A tool in the hot list or a menu page. */
export interface ToolSummary {
  key: string;
  title?: string;
  summary: string;
  /** Pinned by a rule (hot list only). */
  pinned?: true;
}

/** `browse_tools` arguments: no category and no server asks for the menu (T0, T1). */
export interface BrowseRequest {
  category?: string;
  server?: string;
  cursor?: string;
  /** Bound on the answer's JSON text in tokens (o200k); absent: no bound. */
  maxTokens?: number;
}

/** A category in the menu (T1). */
export interface CategorySummary {
  id: CategoryId;
  label: string;
  /** Listed tools in it, and the servers they come from. */
  tools: number;
  servers: number;
  /** Up to three keys: hot ones first, then one per biggest server. */
  examples: string[];
}

/** What an answer cut to `maxTokens` left out, and how to get the rest. */
export interface OmittedNote {
  count: number;
  level?: string;
  hint: string;
}

/** `browse_tools {}`: T0 (hot list: pinned, then most used) and T1 (categories), and the servers. */
export interface MenuAnswer {
  kind: 'menu';
  hot: ToolSummary[];
  categories: CategorySummary[];
  /** Absent when a token budget left it out (`omitted` says so). */
  servers?: AgentServer[];
  omitted?: OmittedNote;
}

/** `browse_tools {category?, server?}`: T2, one page of tools. */
export interface ToolPage {
  kind: 'tools';
  scope: { category?: CategoryId; server?: string };
  /** For a server page: whether its tools can be called now, and why not. */
  usable?: boolean;
  reason?: string;
  total: number;
  /** Position of the first tool of this page in the whole list. */
  offset: number;
  tools: ToolSummary[];
  nextCursor?: string;
  omitted?: OmittedNote;
}

export type BrowseResult = MenuAnswer | ToolPage;

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

/** Where one 2026-era downstream request takes the upstream log messages at or above its level. */
export interface RequestLog {
  level: LogLevel;
  /** A `notifications/message` params object, `logger` prefixed with the server id. */
  send(params: Record<string, unknown>): void;
}

export interface CallRequest {
  signal?: AbortSignal;
  onProgress?: (p: CallProgress) => void;
  /** The downstream request's `_meta` (its progress token is not forwarded; the SDK sets its own). */
  meta?: Record<string, unknown>;
  /** Asks the person behind the client to confirm a call (when the project requires it and the client can ask). */
  confirm?: (message: string) => Promise<boolean>;
  /** Set by run_code: the audit id of the script whose call this is. */
  parentId?: number;
  /** A 2026-era request's log level and where the upstream's log messages go (calls/request-log.ts). */
  log?: RequestLog;
  /** Answers a form elicitation the upstream sends during the call (GatewayOptions.answersElicitation). */
  elicit?: Elicitor;
}

/** The upstream's result, passed through verbatim (`content`, `structuredContent`, `isError`, `_meta`). */
export type CallOutcome = Record<string, unknown>;

/** Whether the server's calls use each caller's own sign-in (`oauth.identity: per-user`). */
export function isPerUser(server: GatewayServer): boolean {
  return server.target.kind === 'remote' && server.target.oauth?.identity === 'per-user';
}
