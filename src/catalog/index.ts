/** The catalog: tool records from listings, synced by pure diff in one transaction; categories and tags. */
export { buildToolRecord, limitSchema, toolKey, hashContent, RECORD_DEFAULTS } from './records.js';
export type { ListedTool, RecordLimits, RecordResult } from './records.js';
export { diffTools, dedupeByKey } from './diff.js';
export { syncServer, applyDiscovery } from './sync.js';
export type { Discovery, SyncReport, SyncOptions } from './sync.js';
export { backfillCategories, categorizeStoredServer } from './store-categories.js';
export { closestKeys } from './suggest.js';
export { CATEGORIES, CATEGORY_IDS, categoryLabel, isCategoryId, type CategoryId } from './categories.js';
export {
  categorizeServer,
  CATEGORIZE_DEFAULTS,
  FALLBACK_CATEGORY,
  type CategorizeOptions,
  type CategorizeServer,
  type CategorizeTool,
  type ToolCategory,
} from './categorize.js';
export { inferTags, tagKind, TAG_KINDS, type TagKind } from './tags.js';
export type { ToolText } from './tool-words.js';
export { embedCategoryExemplars, semanticScores, type SemanticEvidence } from './category-semantic.js';
export { CATEGORY_EXEMPLARS } from './category-exemplars.js';
export {
  escapeUnsafe,
  medianDescriptionLength,
  OVERSIZE,
  scanTool,
  SCAN_RULES,
  type ScanFinding,
  type ScanPeers,
  type ScanRule,
  type ScanTool,
} from './poison-scan.js';
export {
  applyTrust,
  approveTool,
  describeQuarantine,
  DRIFT_REASON,
  pinContent,
  quarantinedKeys,
  type ApprovedTool,
  type QuarantineEntry,
  type TrustOptions,
  type TrustReport,
} from './trust.js';
export { lineDiff } from './line-diff.js';
