/** Persistence: the SQLite catalog store, reached only through its repositories. */
import { openDatabase, type Db } from './sqlite.js';
import { ServersRepo } from './servers-repo.js';
import { ToolsRepo } from './tools-repo.js';
import { SnapshotsRepo } from './snapshots-repo.js';
import { VectorsRepo } from './vectors-repo.js';

export type { DiscoveryStatus, ServerRow, ToolRow, ToolChanges, ToolSearchRow } from './types.js';
export { DISCOVERY_STATUSES } from './types.js';
export type { DiscoveryOutcome } from './servers-repo.js';
export type { VectorModel, VectorRow } from './vectors-repo.js';
export { SCHEMA_VERSION } from './migrations.js';
export { ServersRepo, SnapshotsRepo, ToolsRepo, VectorsRepo };

/** The store: repositories over one database, plus a transaction helper. */
export interface Store {
  readonly path: string;
  readonly servers: ServersRepo;
  readonly tools: ToolsRepo;
  /** Embedding vectors cached by tool content hash and model id. */
  readonly vectors: VectorsRepo;
  /** Derived search state (the lexical index's analysis of the catalog), cached by content key. */
  readonly snapshots: SnapshotsRepo;
  /** Runs `fn` in one transaction: all of its writes land, or none. */
  transaction<T>(fn: () => T): T;
  /** `PRAGMA integrity_check`: 'ok' when the file is sound. */
  checkIntegrity(): string;
  close(): void;
}

/** Opens the store file (created and migrated as needed). */
export function openStore(path: string): Store {
  const db: Db = openDatabase(path);
  return {
    path,
    servers: new ServersRepo(db),
    tools: new ToolsRepo(db),
    vectors: new VectorsRepo(db),
    snapshots: new SnapshotsRepo(db),
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    checkIntegrity: () => String(db.pragma('integrity_check', { simple: true })),
    close: () => db.close(),
  };
}
