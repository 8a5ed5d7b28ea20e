/** Persistence: the catalog store on SQLite or PostgreSQL, reached only through its repositories. */
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store, StoreOptions } from './sqlite/api.js';

export type {
  ActivityKind,
  CategoryEntry,
  DiscoveryStatus,
  ServerRow,
  StoredCategory,
  ToolRow,
  ToolChanges,
  ToolSearchRow,
} from './sqlite/types.js';
export { ACTIVITY_KINDS, DISCOVERY_STATUSES } from './sqlite/types.js';
export type { DiscoveryOutcome } from './sqlite/servers-repo.js';
export type { VectorModel, VectorRow } from './sqlite/vectors-repo.js';
export type {
  ActivityEvent,
  ActivityOptions,
  ActivityRange,
  CallBucket,
  ServerUsage,
  ActivityOutcome,
  FinishedCall,
  HotScore,
  SessionEvent,
  SessionStats,
  StartedEvent,
  ToolUsage,
} from './sqlite/activity-repo.js';
export type { AuditCursor, AuditQuery, AuditRow } from './sqlite/audit-rows.js';
export {
  ACTIVITY_DEFAULTS,
  HOT_DEFAULTS,
  PRUNE_BATCH,
  PRUNE_EVERY,
  INTERRUPTED,
  STARTED,
} from './sqlite/activity-repo.js';
export type { LeaseOptions, SweepResult } from './sqlite/leases.js';
export type { RateHit } from './sqlite/rates-repo.js';
export { LEASE_DEFAULTS } from './sqlite/leases.js';
export type { QuarantineKind, QuarantineRow, StoredFinding, ToolPin } from './sqlite/trust-repo.js';
export { QUARANTINE_KINDS } from './sqlite/trust-repo.js';
export { TOKEN_CACHE_TTL_MS } from './sqlite/tokens-repo.js';
export { SCHEMA_VERSION } from './sqlite/migrations.js';
export type { SecretKeySource } from './sqlite/secret-box.js';
export { finishKeyFileRotation, rotateKeyFile } from './sqlite/secret-box.js';
export {
  SHARED_SUBJECT,
  type UpstreamAuthFacts,
  type UpstreamAuthMeta,
} from './sqlite/upstream-auth-repo.js';
export { copyStore, STORE_TABLES, type TableCopy } from './copy.js';
export { withoutUrlPassword } from './pg/store-url.js';
export { AUDIT_PAGE_ROWS, streamAudit } from './audit-export.js';
export type { Promised, Repositories, Store, StoreChange, StoreEngine, StoreOptions } from './sqlite/api.js';
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
export { PROPOSAL_STATUSES } from './sqlite/proposals-repo.js';
export type { NewProposal, Proposal, ProposalProblem, ProposalStatus } from './sqlite/proposals-repo.js';
