/** Persistence: the SQLite catalog store, reached only through its repositories. */
import { checkpointInBackground, openDatabase, type CheckpointTimer, type Db } from './sqlite.js';
import { ServersRepo } from './servers-repo.js';
import { ToolsRepo } from './tools-repo.js';
import { SnapshotsRepo } from './snapshots-repo.js';
import { VectorsRepo } from './vectors-repo.js';
import { ACTIVITY_DEFAULTS, ActivityRepo, type ActivityOptions } from './activity-repo.js';
import { TokensRepo } from './tokens-repo.js';
import { ProposalsRepo } from './proposals-repo.js';
import { TrustRepo } from './trust-repo.js';

export type {
  ActivityKind,
  CategoryEntry,
  DiscoveryStatus,
  ServerRow,
  StoredCategory,
  ToolRow,
  ToolChanges,
  ToolSearchRow,
} from './types.js';
export { ACTIVITY_KINDS, DISCOVERY_STATUSES } from './types.js';
export type { DiscoveryOutcome } from './servers-repo.js';
export type { VectorModel, VectorRow } from './vectors-repo.js';
export type {
  ActivityEvent,
  ActivityOptions,
  ActivityOutcome,
  FinishedCall,
  HotScore,
  SessionEvent,
  SessionStats,
  StartedEvent,
  ToolUsage,
} from './activity-repo.js';
export type { AuditQuery, AuditRow } from './audit-rows.js';
export { ACTIVITY_DEFAULTS, HOT_DEFAULTS, PRUNE_BATCH, PRUNE_EVERY, STARTED } from './activity-repo.js';
export type { QuarantineKind, QuarantineRow, StoredFinding, ToolPin } from './trust-repo.js';
export { QUARANTINE_KINDS } from './trust-repo.js';
export { TOKEN_CACHE_TTL_MS } from './tokens-repo.js';
export { SCHEMA_VERSION } from './migrations.js';
export {
  ActivityRepo,
  ProposalsRepo,
  ServersRepo,
  SnapshotsRepo,
  TokensRepo,
  ToolsRepo,
  TrustRepo,
  VectorsRepo,
};

/** The store: repositories over one database, plus a transaction helper. */
export interface Store {
  readonly path: string;
  readonly servers: ServersRepo;
  readonly tools: ToolsRepo;
  /** Embedding vectors cached by tool content hash and model id. */
  readonly vectors: VectorsRepo;
  /** Derived search state (the lexical index's analysis of the catalog), cached by content key. */
  readonly snapshots: SnapshotsRepo;
  /** One row per gateway event (calls and session ends): usage, the hot list, tokens saved. */
  readonly activity: ActivityRepo;
  /** Bearer tokens by public id (only hashes of the secrets). */
  readonly tokens: TokensRepo;
  /** Servers proposed for registration and their decisions. */
  readonly proposals: ProposalsRepo;
  /** Tool pins (hashes after the first discovery) and quarantined tools. */
  readonly trust: TrustRepo;
  /** Runs `fn` in one transaction: all of its writes land, or none. */
  transaction<T>(fn: () => T): T;
  /** `PRAGMA integrity_check`: 'ok' when the file is sound. */
  checkIntegrity(): string;
  /**
   * Moves WAL checkpoints off this thread (a worker with its own connection), for a process that
   * serves requests; `onFailure` hears if the worker dies (checkpoints then go back to this thread).
   */
  checkpointInBackground(onFailure: (err: Error) => void): void;
  close(): void;
}

export interface StoreOptions {
  /** Retention of the activity table (ACTIVITY_DEFAULTS when absent). */
  activity?: Partial<ActivityOptions>;
}

/** Opens the store file (created and migrated as needed) and prunes expired activity rows. */
export function openStore(path: string, options: StoreOptions = {}): Store {
  const opened = openDatabase(path);
  const db: Db = opened.db;
  let checkpoints: CheckpointTimer | undefined = opened.checkpoints;
  const activity = new ActivityRepo(db, { ...ACTIVITY_DEFAULTS, ...options.activity });
  activity.pruneExpired();
  return {
    path,
    servers: new ServersRepo(db),
    tools: new ToolsRepo(db),
    vectors: new VectorsRepo(db),
    snapshots: new SnapshotsRepo(db),
    activity,
    tokens: new TokensRepo(db),
    proposals: new ProposalsRepo(db),
    trust: new TrustRepo(db),
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    checkIntegrity: () => String(db.pragma('integrity_check', { simple: true })),
    checkpointInBackground: (onFailure) => {
      checkpoints = checkpointInBackground(path, db, checkpoints, onFailure);
    },
    close: () => {
      checkpoints?.stop();
      activity.flush(); // grouped audit writes still queued: no row is lost to a close
      db.close();
    },
  };
}
export { PROPOSAL_STATUSES } from './proposals-repo.js';
export type { NewProposal, Proposal, ProposalProblem, ProposalStatus } from './proposals-repo.js';
