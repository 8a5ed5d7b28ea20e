// What a 401 from a remote upstream means to Carte: the server needs a sign-in, not a repair. Every
// message names the fix (`carte auth login <id>`, issue 41).
import { SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { CarteError } from '../../errors.js';

/** The command that signs in to a server, as every message names it. */
export const loginCommand = (serverId: string): string => `carte auth login ${serverId}`;

/**
 * Thrown by the provider where a person would have to open the authorization page (a connection
 * or a refresh that cannot go on without one): the caller turns it into `needs_sign_in`.
 */
export class SignInRequired extends Error {
  override readonly name = 'SignInRequired';
  constructor(readonly why: string) {
    super(why);
  }
}

/** Whether a failure (anywhere in its cause chain) is the upstream refusing us for want of a sign-in. */
export function isAuthFailure(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof SignInRequired || e instanceof UnauthorizedError) return true;
    if (e instanceof CarteError && e.code === 'needs_sign_in') return true;
    if (e instanceof SdkHttpError && e.status === 401) return true;
    if ((e as { status?: unknown }).status === 401) return true;
  }
  return false;
}

/** The reason a sign-in is needed, from the failure: what the server answered, or why Carte stopped. */
function reasonOf(err: unknown): string {
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof SignInRequired) return e.why;
  }
  return 'it answered HTTP 401 Unauthorized';
}

/** The gateway's error for an upstream that needs a sign-in, naming the fix. */
export function signInNeeded(serverId: string, err?: unknown): CarteError {
  return new CarteError(
    'needs_sign_in',
    `server "${serverId}" needs a sign-in (${reasonOf(err)}); run \`${loginCommand(serverId)}\``,
    { ...(err === undefined ? {} : { cause: err }), details: { signIn: loginCommand(serverId) } },
  );
}
