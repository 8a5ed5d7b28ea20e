/** The catalog: tool records from listings, synced by pure diff in one transaction; categories and tags. */
export { buildToolRecord, limitSchema, toolKey, hashContent, RECORD_DEFAULTS } from './sync/records.js';
export type { ListedTool, RecordLimits, RecordResult } from './sync/records.js';
export { diffTools, dedupeByKey } from './sync/diff.js';
export { syncServer, applyDiscovery } from './sync/sync.js';
export type { Discovery, SyncReport, SyncOptions } from './sync/sync.js';
export { backfillCategories, categorizeStoredServer } from './categories/store-categories.js';
export { closestKeys } from './trust/suggest.js';
export {
  CATEGORIES,
  CATEGORY_IDS,
  categoryLabel,
  isCategoryId,
  type CategoryId,
} from './categories/categories.js';
export {
  categorizeServer,
  CATEGORIZE_DEFAULTS,
  FALLBACK_CATEGORY,
  type CategorizeOptions,
  type CategorizeServer,
  type CategorizeTool,
  type ToolCategory,
} from './categories/categorize.js';
export { inferTags, tagKind, TAG_KINDS, type TagKind } from './tags/tags.js';
export type { ToolText } from './words/tool-words.js';
export {
  embedCategoryExemplars,
  semanticScores,
  type SemanticEvidence,
} from './categories/category-semantic.js';
export { CATEGORY_EXEMPLARS } from './categories/category-exemplars.js';
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
} from './trust/poison-scan.js';
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
} from './trust/trust.js';
export { lineDiff } from './trust/line-diff.js';
