/** The config module: reads Carte, Claude Desktop / Cursor and VS Code config files into one validated, env-expanded CarteConfig. */
// Its rooms, lowest first (each imports only rooms above it in this list):
//   problems/    errors and warnings at a dotted path, zod issues as problems, did-you-mean
//   schema/      the zod schema and its types, server ids, the server config hash
//   secrets/     secret detection and redaction, and server targets shown with secrets masked
//   parse/       file text to data: JSONC and YAML with line and column
//   variables/   `${env:NAME}`, `${dataDir}` expansion and VS Code envFile
//   formats/     which format a file is in; Claude Desktop / Cursor / VS Code / other clients' servers
//   validate/    a parsed document to CarteConfig: schema, cross-field rules, rules, projects, http, search
//   load/        which file to read (paths), reading and validating it, the demo config
//   edit/        adding and removing servers in a config file, keeping its comments and style
//   proposals/   registration: proposal files and their checks against allow and deny lists
//   clients/     `carte install`: each client's user-level file, moving its servers in and back
//   json-schema/ the JSON Schema of each format, for editors
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
} from './schema/schema.js';
export { CARTE_SCOPES } from './schema/schema-auth.js';
export type {
  AuditConfig,
  AuthConfig,
  OidcConfig,
  CallClass,
  CarteConfig,
  CategoryId,
  ProjectConfig,
  RateConfig,
  RegistrationConfig,
  RemoteSearchConfig,
  RemoteServerConfig,
  SearchConfig,
  ServerConfig,
  StdioServerConfig,
  ToolRule,
} from './schema/schema.js';
export {
  LLM_RERANK_DEFAULTS,
  LLM_RERANK_PROVIDERS,
  type LlmRerankConfig,
  type LlmRerankProvider,
} from './schema/schema-rerank.js';
export type { Problem } from './problems/problems.js';
export type { ConfigFormat } from './formats/detect-format.js';
export { loadConfigFile, parseConfigText } from './load/load.js';
export type { LoadOptions, LoadResult } from './load/load.js';
export {
  CONFIG_FILE_NAMES,
  resolveCacheDir,
  resolveConfigPath,
  resolveDataDir,
  userConfigPath,
} from './load/paths.js';
export type { ConfigSource, UserPlace } from './load/paths.js';
export { DEMO_PACKAGES, demoConfig, demoPackageEntry } from './load/demo.js';
export { serverConfigHash } from './schema/hash.js';
export { describeServerTarget } from './secrets/describe-target.js';
export type { ServerTargetInput } from './secrets/describe-target.js';
export { allowedAtOnce, badGrant, requestedNetwork, withGrant } from './proposals/proposal-sandbox.js';
export { addServerToFile, removeServerFromFile, writeAtomically } from './edit/edit-file.js';
export { launcherAdvice } from './edit/launcher-advice.js';
export { CLIENT_IDS, CLIENTS, clientSpec, type ClientId, type ClientSpec } from './clients/client-table.js';
export {
  CARTE_ENTRY_ID,
  carteEntryIn,
  digest,
  planInstall,
  type InstallInput,
  type InstallPlan,
} from './clients/install-plan.js';
export {
  planUninstall,
  type InstallRecord,
  type UninstallInput,
  type UninstallPlan,
} from './clients/uninstall-plan.js';
export type { ServerInput } from './edit/server-input.js';
export { isServerId, normaliseServerId } from './schema/server-ids.js';
export { configJsonSchema } from './json-schema/json-schema.js';
export {
  checkProposal,
  DEFAULT_DENY_RULES,
  matchesAllow,
  PROPOSAL_LIMITS,
  type AllowList,
  type AllowMatch,
  type ProposalCheckOptions,
} from './proposals/proposal-checks.js';
export { parseProposalText, readProposalFile, MAX_PROPOSAL_FILE_BYTES } from './proposals/proposal-file.js';
export type { CheckedProposal, ProposalFile } from './proposals/proposal-file.js';
export {
  looksSecretKey,
  looksSecretValue,
  redact,
  redactText,
  REDACTED,
  secretKind,
} from './secrets/secrets.js';
export { didYouMean } from './problems/did-you-mean.js';
