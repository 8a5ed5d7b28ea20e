/** Upstreams: the only place that speaks MCP as a client or spawns processes. */
export type { UpstreamConnection } from './connection.js';
export type { UpstreamInfo } from './connection.js';
export { LOG_LEVELS, type LogLevel } from './types.js';
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
export type { Elicitor, ElicitationAnswer, FormElicitation, FormValue } from './elicitation.js';
export { probeSandbox } from './sandbox/probe.js';
export type { SandboxSpec, SandboxSupport, LimitMechanism } from './sandbox/types.js';
export type { OAuthEvent, OAuthRecord, OAuthSettings, OAuthVault, UpstreamOAuth } from './oauth/types.js';
import type { signIn as signInNow } from './oauth/sign-in.js';
export type { SignedIn, SignInOptions } from './oauth/sign-in.js';
export type { DeliveredAnswer, SignInCallback, SignInOutcome } from './oauth/callback-desk.js';
/** Signs in to a server (oauth/sign-in.ts), loading the OAuth client (the MCP SDK) only then. */
export async function signIn(...args: Parameters<typeof signInNow>): ReturnType<typeof signInNow> {
  return (await import('./oauth/sign-in.js')).signIn(...args);
}
export { CallbackDesk } from './oauth/callback-desk.js';
export { revokeTokens, type Revocation } from './oauth/sign-out.js';
export { urlOpener } from './oauth/open-url.js';
export { loginCommand, repeatGlobalFlags } from './oauth/login-command.js';
