// The store as the rest of Carte sees it: the same repositories over SQLite (the embedded default)
// and PostgreSQL (a team's replicas), every method async. The SQLite repositories beside this file
// are the reference: each method's contract is documented there and derived from them here (so
// this room holds the API), and the PostgreSQL ones (../pg/) keep it.
import type { ActivityRepo } from './activity-repo.js';
import type { ProposalsRepo } from './proposals-repo.js';
import type { RatesRepo } from './rates-repo.js';
import type { ServersRepo } from './servers-repo.js';
import type { SnapshotsRepo } from './snapshots-repo.js';
import type { TokensRepo } from './tokens-repo.js';
import type { ToolsRepo } from './tools-repo.js';
import type { TrustRepo } from './trust-repo.js';
import type { VectorsRepo } from './vectors-repo.js';
import type { UpstreamAuthRepo } from './upstream-auth-repo.js';
import type { SecretKeySource } from './secret-box.js';
import type { ActivityOptions } from './activity-repo.js';
import type { LeaseOptions } from './leases.js';

/** `T`'s methods, each answering with a promise of what it returned. */
export type Promised<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : T[K];
};

/** Which database holds the store. */
export type StoreEngine = 'sqlite' | 'postgres';

/**
 * What another process changed in a shared store: the catalog (servers, tools, categories, the
 * quarantine), the tokens, or an upstream sign-in (saved, refreshed or forgotten).
 */
export type StoreChange = 'catalog' | 'tokens' | 'sign_ins';

/** The repositories of one store; a transaction hands its body the same set, bound to it. */
export interface Repositories {
  readonly servers: Promised<ServersRepo>;
  readonly tools: Promised<ToolsRepo>;
  /** Embedding vectors cached by tool content hash and model id. */
  readonly vectors: Promised<VectorsRepo>;
  /** Derived search state (the lexical index's analysis of the catalog), cached by content key. */
  readonly snapshots: Promised<SnapshotsRepo>;
  /** One row per gateway event (calls and session ends): usage, the hot list, tokens saved, audit. */
  readonly activity: Promised<Omit<ActivityRepo, 'flush' | 'inFlight'>>;
  /** Bearer tokens by public id (only hashes of the secrets). */
  readonly tokens: Promised<TokensRepo>;
  /** Servers proposed for registration and their decisions. */
  readonly proposals: Promised<ProposalsRepo>;
  /** Tool pins (hashes after the first discovery) and quarantined tools. */
  readonly trust: Promised<TrustRepo>;
  /** Upstream sign-ins (OAuth tokens, registered clients), sealed with the store's secret key. */
  readonly upstreamAuth: Promised<UpstreamAuthRepo>;
  /** Rate-limit counters: this process's memory on SQLite, shared tables on PostgreSQL. */
  readonly rates: Promised<RatesRepo>;
}

/** The store: repositories over one database, plus a transaction helper. */
export interface Store extends Repositories {
  readonly engine: StoreEngine;
  /** Where the store lives, fit to print: a file path, or a database URL without its password. */
  readonly path: string;
  /**
   * Runs `fn` in one transaction on `tx`: all of its writes land, or none. The body should await
   * only `tx`'s repositories (on SQLite other writers wait until it ends).
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** 'ok' when the database is sound (SQLite's `PRAGMA integrity_check`; PostgreSQL: it answers). */
  checkIntegrity(): Promise<string>;
  /** Resolves when the database answers a trivial statement (readiness probes); rejects otherwise. */
  ping(): Promise<void>;
  /**
   * Calls `listener` when another process changes the shared store (PostgreSQL: LISTEN/NOTIFY,
   * also after a lost connection comes back). SQLite never calls it: one file, read per request.
   */
  subscribe(listener: (change: StoreChange) => void): () => void;
  /**
   * Runs `fn` while no other holder of `name` runs, across every process on the database
   * (PostgreSQL: an advisory lock); on SQLite, within this process only.
   */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Moves work that would stall the event loop off it, for a process that serves requests (SQLite:
   * WAL checkpoints on a worker thread); `onFailure` hears if that fails.
   */
  checkpointInBackground(onFailure: (err: Error) => void): void;
  /** Writes what is queued (grouped audit rows) and closes the connection(s). */
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Retention of the activity table (ACTIVITY_DEFAULTS when absent). */
  activity?: Partial<ActivityOptions>;
  /** The key that seals upstream sign-ins (secret-box.ts); read only when one is saved or read. */
  secretKey?: SecretKeySource;
  /** PostgreSQL: how a replica's lease is kept (pg/leases.ts, LEASE_DEFAULTS when absent). */
  lease?: Partial<LeaseOptions>;
  /** The clock a start stamps on the rows it finds `interrupted` (tests); Date.now when absent. */
  now?: () => number;
}
