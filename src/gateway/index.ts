/** The gateway: the one facade every face (CLI, MCP, HTTP, web) calls. */
export { Gateway } from './gateway.js';
export type { DownstreamEvents, UpstreamPassthrough } from './passthrough-facade.js';
export { DEFAULT_LOG_LEVEL } from './calls/upstream-events.js';
export { serversFromConfig } from './from-config.js';
export { buildOfflineRanker, type CatalogFileTool, type OfflineRanker } from './menu/rank.js';
export {
  categorizeCatalog,
  type CategorizedTool,
  type OfflineCategories,
} from './menu/categorize-offline.js';
export { CATEGORY_IDS, categoryLabel, type CategorizeOptions, type CategoryId } from '../catalog/index.js';
export type { GatewayOptions } from './gateway-parts.js';
export type { SearchRequest } from './find/search-plan.js';
export { CODE_DEFAULTS, type CodeLimits, type RunCodeRequest } from './scripts/run-code.js';
export { quote as tsString, schemaToTypeScript } from './scripts/schema-to-ts.js';
export { toolSignature, type FittedSignatures } from './scripts/signature.js';
export { EMBED_BATCH, TEXT_RECIPE } from './find/hybrid-search.js';
export {
  REMOTE_SEARCH_DEFAULTS,
  SEARCH_STRATEGIES,
  type EmbedProgress,
  type GatewaySearchOptions,
  type LlmRerankOptions,
  type RemoteSearchOptions,
  type SearchMeta,
  type SearchStatus,
  type SearchStrategy,
} from './shared/search-options.js';
export { llmRerankOptions, remoteSearchOptions } from './find/remote-providers.js';
export { searchOptionsFromConfig } from './find/search-config.js';
export type { ProjectSearchStatus } from './find/search-strategies.js';
export { SAMPLING_PROVIDER } from './find/tool-search.js';
export type { Complete, CompletionRequest } from '../search/index.js';
export { lazyUseLiteEmbedder, type Embedder, type RemoteMeta, type Reranker } from '../search/index.js';
export { findDictionaries, type GlossFileState, type InstalledDictionaries } from '../search/index.js';
export type { ReloadReport } from './calls/reload.js';
export { callerLabel, LOCAL_CALLER, localCaller } from './access/context.js';
export {
  ACCEPTED_ALGORITHMS,
  createOidcVerifier,
  OIDC_DEFAULTS,
  type AccessTokenVerifier,
  type OidcOptions,
} from './access/oidc.js';
export {
  DEFAULT_PROJECT,
  projectsFromConfig,
  type GatewayProject,
  type ProjectSearch,
} from './access/projects.js';
export { requireScope, scopeAllows, type Scope } from './access/scopes.js';
export type { CallerContext } from './access/context.js';
export {
  parseRate,
  RATE_DEFAULTS,
  RateLimiter,
  type ProjectRate,
  type RateLimitKind,
  type RateLimiterOptions,
  type RateRefusal,
} from './access/rate-limits.js';
export { count, summarize } from './menu/summary.js';
export { compileRules, type CompiledRules } from '../policy/index.js';
export type { BrowseRequest, CategorySummary, MenuAnswer, ToolPage } from './shared/types.js';
export { BROWSE_PAGE_SIZE, CATEGORY_EXAMPLES } from './menu/menu.js';
export type { FiledToolDetail } from './menu/filed-detail.js';
export { LIFECYCLE_DEFAULTS, type LifecycleOptions } from './calls/lifecycle.js';
export { SERVER_STATES, type ServerState } from './shared/types.js';
export type {
  BrowseResult,
  CallOutcome,
  CallProgress,
  CallRequest,
  RequestLog,
  GatewayServer,
  SearchOutcome,
  SearchResult,
  ServerSummary,
  SandboxView,
  ToolDetail,
  ToolSummary,
} from './shared/types.js';
export type { SyncReport } from '../catalog/index.js';
export type { Logger } from '../upstream/index.js';
export type { ElicitationAnswer, Elicitor, FormElicitation, FormValue } from '../upstream/index.js';
// Only upstream/ spawns; the CLI runs the service manager (`carte service install --start`) through this.
export { runProgram, type ProgramOutcome } from '../upstream/index.js';
// `carte doctor` says whether a sandbox and which limit mechanism can be had here.
export { probeSandbox, type SandboxSupport } from '../upstream/index.js';
export { INTERRUPTED, openStore, type HotScore, type Store, type ToolUsage } from '../store/index.js';
export { copyStore, isDatabaseUrl, streamAudit, withoutUrlPassword, type TableCopy } from '../store/index.js';
export {
  BUDGET_DEFAULTS,
  checkMaxTokens,
  fitToBudget,
  type Fit,
  type FitOptions,
  type Omitted,
  type Rendering,
} from './menu/budget.js';
export {
  countTokens,
  ENCODINGS,
  loadTokenizer,
  type Encoding,
  type Tokenizer,
} from './menu/budget-tokens.js';
export {
  fitToolDetail,
  reduceToolDetail,
  TOOL_DETAIL_LEVELS,
  type FittedToolDetail,
  type ReducedToolDetail,
  type ToolDetailLevel,
} from './menu/budget-tool.js';
export {
  createProjectToken,
  createToken,
  listProjectTokens,
  listTokens,
  MAX_CALLER_ADMIN_TOKEN_DAYS,
  resolveBearer,
  revokeProjectToken,
  revokeToken,
  TOKEN_PREFIX,
  TOKEN_SCOPES,
  type CreatedToken,
  type CreateTokenInput,
  type ResolveOptions,
  type TokenInfo,
} from './access/tokens.js';
export {
  createProjectTokenAudited,
  createTokenAudited,
  revokeProjectTokenAudited,
  revokeTokenAudited,
  type RevokedToken,
  type TokenSite,
} from './token-admin.js';
export {
  AuditLog,
  AUDIT_DEFAULTS,
  argsDigest,
  type AuditEvent,
  type AuditObservation,
  type AuditOptions,
  type AuditQuery,
  type AuditRow,
} from './trust/audit.js';
export { approveTool, describeQuarantine, quarantinedKeys, type QuarantineEntry } from '../catalog/index.js';
export {
  approveProposal,
  approveQuarantinedTool,
  listApprovals,
  pendingOf,
  proposalClashes,
  proposalProblems,
  rejectProposal,
  unresolvedVariables,
  type ApprovalSite,
  type ApprovedProposal,
  type ApprovalChoice,
  type PendingApprovals,
  type PendingProposal,
} from './approvals.js';
export { requestServer, type ServerRequestAnswer } from './agent-requests.js';
export {
  activityReport,
  auditPage,
  exportAudit,
  readStats,
  ACTIVITY_RANGES,
  EXPORT_PAGE,
  TOP_TOOLS,
  type ActivityRangeId,
  type ActivityReport,
  type ActivityRequest,
  type Stats,
} from './trust/activity-report.js';
export type { AuditCursor, CallBucket, ServerUsage } from '../store/index.js';
export {
  signInToServer,
  signOutOfServer,
  signInStates,
  upstreamAuthStatus,
  type OwnLink,
  type SignInSite,
  type UpstreamAuthStatus,
} from './upstream-sign-in.js';
export { signInThroughClient, type UrlAsker } from './elicited-sign-in.js';
export {
  rotateSecretKey,
  type KeyRotation,
  type KeyRotationReport,
  type KeyRotationSource,
} from './key-rotation.js';
export { endSignIn, startSignIn, type EndedSignIn, type StartedSignIn } from './started-sign-in.js';
export { CallbackDesk, type SignInOutcome } from '../upstream/index.js';
export {
  urlOpener,
  loginCommand,
  repeatGlobalFlags,
  type Revocation,
  type SignedIn,
} from '../upstream/index.js';
