// Sign-ins that come back to one shared address, the HTTP face's `/oauth/callback`, instead of a
// loopback listener of their own: each waits under its `state` (RFC 6749, section 10.12), and a
// redirect is handed to the sign-in whose state it carries.
import type { SignInCallback } from './sign-in.js';
import { awaitAnswer } from './sign-in.js';

/** The sign-ins waiting at one redirect URI, by state. */
export class CallbackDesk {
  private readonly waiting = new Map<string, (query: URLSearchParams) => void>();

  constructor(readonly redirectUrl: string) {}

  /** One sign-in's callback at this desk (pass as `SignInOptions.callback`). */
  callback(): SignInCallback {
    let mine: string | undefined;
    return {
      redirectUrl: this.redirectUrl,
      result: (state, serverId, timeoutMs) => {
        mine = state;
        const arrived = new Promise<URLSearchParams>((resolve) => this.waiting.set(state, resolve));
        return awaitAnswer(arrived, state, serverId, timeoutMs);
      },
      close: () => {
        if (mine !== undefined) this.waiting.delete(mine);
      },
    };
  }

  /** Hands a redirect's query to the sign-in waiting for its state; false when none is. */
  deliver(query: URLSearchParams): boolean {
    const state = query.get('state');
    const waiter = state === null ? undefined : this.waiting.get(state);
    if (!waiter) return false;
    this.waiting.delete(state!);
    waiter(query);
    return true;
  }
}
