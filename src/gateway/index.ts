/** The gateway: the one facade every face (CLI, MCP, HTTP, web) calls. */
export { Gateway } from './gateway.js';
export { serversFromConfig } from './from-config.js';
export { buildOfflineRanker, type CatalogFileTool, type OfflineRanker } from './rank.js';
export type { GatewayOptions, SearchRequest } from './gateway.js';
export { EMBED_BATCH, TEXT_RECIPE } from './hybrid-search.js';
export {
  REMOTE_SEARCH_DEFAULTS,
  SEARCH_STRATEGIES,
  type EmbedProgress,
  type GatewaySearchOptions,
  type RemoteSearchOptions,
  type SearchMeta,
  type SearchStatus,
  type SearchStrategy,
} from './search-options.js';
export { remoteSearchOptions } from './remote-providers.js';
export { lazyUseLiteEmbedder, type Embedder, type RemoteMeta, type Reranker } from '../search/index.js';
export type { ReloadReport } from './reload.js';
export { LOCAL_CALLER } from './context.js';
export type { CallerContext } from './context.js';
export { summarize } from './summary.js';
export { BROWSE_PAGE_SIZE } from './browse.js';
export { LIFECYCLE_DEFAULTS, SERVER_STATES, type LifecycleOptions, type ServerState } from './lifecycle.js';
export type {
  BrowseResult,
  CallOutcome,
  CallProgress,
  CallRequest,
  GatewayServer,
  SearchOutcome,
  SearchResult,
  ServerSummary,
  ToolDetail,
  ToolSummary,
} from './types.js';
export type { SyncReport } from '../catalog/index.js';
export type { Logger } from '../upstream/index.js';
export { openStore, type Store } from '../store/index.js';
