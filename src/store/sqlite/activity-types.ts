// The activity table's records: what a gateway event writes, and the options of its retention.
import type { ErrorCode } from '../../errors.js';
import type { ActivityKind } from './types.js';

/** How an event ended: `ok`, the upstream's own `isError` result, or the gateway's error code. */
export type ActivityOutcome = 'ok' | 'tool_error' | ErrorCode;

/** One event to record. A `call` needs its tool key and server. */
export interface ActivityEvent {
  kind: ActivityKind;
  /** Unix epoch milliseconds; now when absent. */
  at?: number;
  key?: string;
  server?: string;
  outcome: ActivityOutcome;
  durationMs: number;
  /** Size of the result (see gateway/trust/usage.ts for how it is measured); absent for failures. */
  resultBytes?: number;
  /** The audit columns (issue 15): who asked and what with. */
  requestId?: string;
  /** The token's public id, never the token. */
  tokenId?: string;
  project?: string;
  /** A digest of the arguments (gateway/trust/audit.ts). */
  argsDigest?: string;
  /** The arguments with secrets redacted, as JSON text; only under `audit.arguments: redacted`. */
  args?: string;
  /** A short note: a search query's digest, an admin action's subject. */
  detail?: string;
  /** An identity provider's access token: its `sub` claim (issue 31). */
  subject?: string;
  /** An identity provider's access token: the client it was issued to (`azp` or `client_id`). */
  client?: string;
  /** The id of the `code` row of the run_code script that made this call (issue 43). */
  parentId?: number;
  /** The process or replica that began the call (leases.ts): set by the store on `begin`, not by callers. */
  owner?: string;
}

/** A call's row as `begin` writes it, before the call runs. */
export type StartedEvent = Omit<ActivityEvent, 'outcome' | 'durationMs' | 'resultBytes'>;

/** How a begun call ended. */
export interface FinishedCall {
  outcome: ActivityOutcome;
  durationMs: number;
  resultBytes?: number;
  /** A failed call's error message, redacted (the `detail` column); kept as it was when absent. */
  detail?: string;
}

/** One downstream session's end: what Carte sent against what a full listing would have cost. */
export interface SessionEvent {
  /** Unix epoch milliseconds of the session's end; now when absent. */
  at?: number;
  durationMs: number;
  /** Tokens of everything Carte sent the client (listings and meta-tool answers), a whole number >= 0. */
  tokensSent: number;
  /** Tokens the full listing of the tools visible to the session would have cost, a whole number >= 0. */
  tokensListing: number;
  /** The session's project (absent: counted as `default`'s). */
  project?: string;
}

/** Sessions ended in a time range and their token sums (`carte stats`). */
export interface SessionStats {
  sessions: number;
  tokensSent: number;
  tokensListing: number;
}

/** A tool's recency-weighted call count. */
export interface HotScore {
  key: string;
  score: number;
}

export interface ActivityOptions {
  /** Rows older than this are pruned (on open and every PRUNE_EVERY writes). */
  retentionDays: number;
  /** At most this many rows are kept, whatever their age (a runaway agent cannot fill the disk). */
  maxRows: number;
}
