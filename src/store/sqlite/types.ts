/** Records as the store keeps them; JSON columns are parsed values here. */
import type { CategoryId } from '../../config/index.js';

/** `needs_sign_in`: the server's HTTP endpoint answered 401 (docs/upstream-auth.md). */
export const DISCOVERY_STATUSES = ['never', 'discovering', 'success', 'failed', 'needs_sign_in'] as const;
export type DiscoveryStatus = (typeof DISCOVERY_STATUSES)[number];

/**
 * Kinds of event the activity table holds: `session` is one row at the end of each downstream
 * session, with its token counts; `auth` a request refused by a rate limit or a sign-in lockout.
 */
export const ACTIVITY_KINDS = [
  'call',
  'search',
  'browse',
  'describe',
  'admin',
  'session',
  'code',
  'auth',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export interface ServerRow {
  id: string;
  configHash: string;
  status: DiscoveryStatus;
  lastDiscoveryAt: string | null;
  lastError: string | null;
  toolCount: number;
  /** 'legacy' | 'modern' once known: lets a reconnect skip the era probe. */
  /** The protocol version negotiated last time ('2025-11-25', '2026-07-28'...). */
  protocolEra: string | null;
  /** The server's `server/discover` result, for a modern-era reconnect without a probe. */
  discoverResult: unknown;
  serverName: string | null;
  serverVersion: string | null;
  instructions: string | null;
  /** Warnings from the last discovery (duplicate names, truncated schemas). */
  warnings: string[];
}

export interface ToolRow {
  key: string;
  serverId: string;
  name: string;
  title: string | null;
  description: string | null;
  inputSchema: unknown;
  outputSchema: unknown;
  annotations: unknown;
  meta: unknown;
  execution: unknown;
  icons: unknown;
  /** Original schema size in bytes when it was over the limit and a reduced one was stored. */
  schemaTruncatedFrom: number | null;
  contentHash: string;
  firstSeenAt: string;
  lastSeenAt: string;
}

/** The columns search reads of a tool: no schemas beyond the input schema's parameter names. */
export type ToolSearchRow = Pick<
  ToolRow,
  'key' | 'serverId' | 'name' | 'title' | 'description' | 'contentHash'
> & {
  /** Top-level property names of the input schema. */
  paramNames: string[];
};

/** What a sync writes for one server, in one transaction. */
export interface ToolChanges {
  added: ToolRow[];
  changed: ToolRow[];
  removed: string[];
  unchanged: string[];
}

/** A tool's stored automatic category and tags (rules apply on top, at read time). */
export interface StoredCategory {
  category: CategoryId;
  tags: string[];
}

/** One tool's category and tags to store. */
export interface CategoryEntry {
  key: string;
  category: CategoryId;
  tags: readonly string[];
}
