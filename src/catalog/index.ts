/** The catalog: tool records built from upstream listings, synced by pure diff in one transaction. */
export { buildToolRecord, limitSchema, toolKey, hashContent, RECORD_DEFAULTS } from './records.js';
export type { ListedTool, RecordLimits, RecordResult } from './records.js';
export { diffTools, dedupeByKey } from './diff.js';
export { syncServer, applyDiscovery } from './sync.js';
export type { Discovery, SyncReport, SyncOptions } from './sync.js';
export { closestKeys } from './suggest.js';
