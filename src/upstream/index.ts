/** Upstreams: the only place that speaks MCP as a client or spawns processes. */
export type { UpstreamConnection } from './connection.js';
export type { UpstreamInfo } from './connection.js';
export { LOG_LEVELS, type LogLevel } from './extras.js';
export { UpstreamPool } from './pool.js';
export { runNodeJob, runNodeJobSync } from './node-job.js';
export { runProgram, type ProgramOutcome } from './run-program.js';
export type {
  KnownEra,
  UpstreamTarget,
  Logger,
  ConnectOptions,
  CallOptions,
  ProgressUpdate,
  UpstreamNotification,
} from './types.js';
export { probeSandbox } from './sandbox/probe.js';
export type { SandboxSpec, SandboxSupport, LimitMechanism } from './sandbox/types.js';
export type { OAuthEvent, OAuthRecord, OAuthSettings, OAuthVault, UpstreamOAuth } from './oauth/types.js';
export { signIn, type SignedIn, type SignInCallback, type SignInOptions } from './oauth/sign-in.js';
export { CallbackDesk } from './oauth/callback-desk.js';
export { revokeTokens, type Revocation } from './oauth/sign-out.js';
export { urlOpener } from './oauth/open-url.js';
export { loginCommand } from './oauth/sign-in-needed.js';
