/** The config module: reads Carte, Claude Desktop / Cursor and VS Code config files into one validated, env-expanded CarteConfig. */
export {
  CALL_CLASSES,
  CATEGORY_IDS,
  ConfigSchema,
  LimitsSchema,
  RemoteServerSchema,
  SearchSchema,
  SERVER_ID_PATTERN,
  ServerSchema,
  StdioServerSchema,
  ToolRuleSchema,
} from './schema.js';
export type {
  AuditConfig,
  CallClass,
  CarteConfig,
  CategoryId,
  ProjectConfig,
  RegistrationConfig,
  RemoteSearchConfig,
  RemoteServerConfig,
  SearchConfig,
  ServerConfig,
  StdioServerConfig,
  ToolRule,
} from './schema.js';
export {
  LLM_RERANK_DEFAULTS,
  LLM_RERANK_PROVIDERS,
  type LlmRerankConfig,
  type LlmRerankProvider,
} from './schema-rerank.js';
export type { Problem } from './problems.js';
export type { ConfigFormat } from './detect-format.js';
export { loadConfigFile, parseConfigText } from './load.js';
export type { LoadOptions, LoadResult } from './load.js';
export { CONFIG_FILE_NAMES, resolveConfigPath, resolveDataDir } from './paths.js';
export type { ConfigSource } from './paths.js';
export { DEMO_PACKAGES, demoConfig, demoPackageEntry } from './demo.js';
export { serverConfigHash } from './hash.js';
export { describeServerTarget } from './describe-target.js';
export type { ServerTargetInput } from './describe-target.js';
export { addServerToFile, removeServerFromFile } from './edit-file.js';
export type { ServerInput } from './server-input.js';
export { isServerId, normaliseServerId } from './server-ids.js';
export { configJsonSchema } from './json-schema.js';
export {
  checkProposal,
  DEFAULT_DENY_RULES,
  matchesAllow,
  PROPOSAL_LIMITS,
  type AllowList,
  type AllowMatch,
  type ProposalCheckOptions,
} from './proposal-checks.js';
export { parseProposalText, readProposalFile, MAX_PROPOSAL_FILE_BYTES } from './proposal-file.js';
export type { CheckedProposal, ProposalFile } from './proposal-file.js';
export { looksSecretKey, looksSecretValue, redact, redactText, REDACTED, secretKind } from './secrets.js';
export { didYouMean } from './did-you-mean.js';
