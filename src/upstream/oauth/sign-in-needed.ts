// What a 401 from a remote upstream means to Carte: the server needs a sign-in, not a repair. Every
// message names the fix (`carte auth login <id>`, issue 41).
import { SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { CarteError } from '../../errors.js';
import { loginCommand } from './login-command.js';

export { loginCommand };

/**
 * Thrown by the provider where a person would have to open the authorization page (a connection
 * or a refresh that cannot go on without one): the caller turns it into `needs_sign_in`.
 */
export class SignInRequired extends Error {
  override readonly name = 'SignInRequired';
  /** @param scope the scope a new sign-in must ask for (a step-up), when known */
  constructor(
    readonly why: string,
    readonly scope?: string,
  ) {
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

/** Carte's own verdict in a failure's cause chain, if any. */
function requiredOf(err: unknown): SignInRequired | undefined {
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof SignInRequired) return e;
  }
  return undefined;
}

/**
 * The gateway's error for an upstream that needs a sign-in, naming the fix; `details.scope` is
 * the scope a new sign-in must ask for, when the server asked for more (a step-up).
 */
export function signInNeeded(serverId: string, err?: unknown): CarteError {
  const required = requiredOf(err);
  const why = required?.why ?? 'it answered HTTP 401 Unauthorized';
  const scope = required?.scope;
  return new CarteError(
    'needs_sign_in',
    `server "${serverId}" needs a sign-in (${why}); run \`${loginCommand(serverId)}\``,
    {
      ...(err === undefined ? {} : { cause: err }),
      details: { server: serverId, signIn: loginCommand(serverId), ...(scope ? { scope } : {}) },
    },
  );
}
