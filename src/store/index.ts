/** Persistence: the catalog store on SQLite or PostgreSQL, reached only through its repositories. */
import { openSqliteStore } from './sqlite-store.js';
import type { Store, StoreOptions } from './api.js';

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
export type { Promised, Repositories, Store, StoreEngine, StoreOptions } from './api.js';
/** One repository's type, as the store hands it out. */
export type SnapshotsRepo = Store['snapshots'];

/**
 * Opens the store at `location`: a `postgres://` (or `postgresql://`) URL for a team's shared
 * database, otherwise the path of a SQLite file (created and migrated as needed).
 */
export async function openStore(location: string, options: StoreOptions = {}): Promise<Store> {
  if (isDatabaseUrl(location)) {
    const { openPostgresStore } = await import('./pg/pg-store.js');
    return openPostgresStore(location, options);
  }
  return openSqliteStore(location, options);
}

/** True for a PostgreSQL connection URL. */
export function isDatabaseUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}
export { PROPOSAL_STATUSES } from './proposals-repo.js';
export type { NewProposal, Proposal, ProposalProblem, ProposalStatus } from './proposals-repo.js';
