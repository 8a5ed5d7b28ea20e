// Sign-ins that come back to one shared address, the HTTP face's `/oauth/callback`, instead of a
// loopback listener of their own: each waits under its `state` (RFC 6749, section 10.12), and a
// redirect is handed to the sign-in whose state it carries.
import { CarteError } from '../../errors.js';
import { loginCommand } from './login-command.js';

/** How a sign-in ended, as the page the browser lands on tells it (never a token). */
export type SignInOutcome = { ok: true } | { ok: false; message: string };

/** One sign-in's redirect: where it comes back, the answer carrying `state`, and the end of waiting. */
export interface SignInCallback {
  redirectUrl: string;
  /** Starts waiting for `state` before the page opens: a browser may come back before `result` is asked. */
  expect?(state: string, serverId: string): void;
  /** `again`: what the timeout's message tells the person to do (default: run `carte auth login` again). */
  result(
    state: string,
    serverId: string,
    timeoutMs: number,
    again?: string,
  ): Promise<{ code: string; iss?: string }>;
  /** Ends the wait; `outcome` is how the sign-in ended (after the code exchange). */
  close(outcome?: SignInOutcome): void;
}

/** A redirect handed to its sign-in: which server, and how the sign-in ends once the code is exchanged. */
export interface DeliveredAnswer {
  server: string;
  outcome: Promise<SignInOutcome>;
}

interface Waiter {
  server: string;
  answer(query: URLSearchParams): Promise<SignInOutcome>;
}

/** The sign-ins waiting at one redirect URI, by state. */
export class CallbackDesk {
  private readonly waiting = new Map<string, Waiter>();

  constructor(readonly redirectUrl: string) {}

  /** One sign-in's callback at this desk (pass as `SignInOptions.callback`). */
  callback(): SignInCallback {
    let mine: string | undefined;
    let arrived: Promise<URLSearchParams> | undefined;
    let settle: (outcome: SignInOutcome) => void = () => undefined;
    const ended = new Promise<SignInOutcome>((resolve) => (settle = resolve));
    const expect = (state: string, serverId: string): Promise<URLSearchParams> => {
      if (mine === state && arrived) return arrived;
      mine = state;
      return (arrived = new Promise<URLSearchParams>((resolve) =>
        this.waiting.set(state, { server: serverId, answer: (query) => (resolve(query), ended) }),
      ));
    };
    return {
      redirectUrl: this.redirectUrl,
      expect: (state, serverId) => void expect(state, serverId),
      result: (state, serverId, timeoutMs, again) =>
        awaitAnswer(expect(state, serverId), state, serverId, timeoutMs, again),
      close: (outcome) => {
        if (mine !== undefined) this.waiting.delete(mine);
        settle(outcome ?? { ok: false, message: 'the sign-in ended without an answer' });
      },
    };
  }

  /** Hands a redirect's query to the sign-in waiting for its state; undefined when none is. */
  deliver(query: URLSearchParams): DeliveredAnswer | undefined {
    const state = query.get('state');
    const waiter = state === null ? undefined : this.waiting.get(state);
    if (!waiter) return undefined;
    this.waiting.delete(state!);
    return { server: waiter.server, outcome: waiter.answer(query) };
  }
}

/** The answer once it arrives (checked against `state`), or the timeout's error saying what to do `again`. */
export async function awaitAnswer(
  arrived: Promise<URLSearchParams>,
  state: string,
  serverId: string,
  timeoutMs: number,
  again = `run \`${loginCommand(serverId)}\` again (with --no-browser to open the URL yourself)`,
): Promise<{ code: string; iss?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new CarteError(
            'timeout',
            `no sign-in to server "${serverId}" came back within ${Math.round(timeoutMs / 1000)} s; ${again}`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    const q = await Promise.race([arrived, timeout]);
    return checkCallback(q, state, serverId);
  } finally {
    clearTimeout(timer);
  }
}

function checkCallback(q: URLSearchParams, state: string, serverId: string): { code: string; iss?: string } {
  const error = q.get('error');
  if (error) {
    const why = q.get('error_description');
    throw new CarteError(
      'denied',
      `the sign-in to server "${serverId}" was refused: ${error}${why ? ` (${why})` : ''}`,
    );
  }
  // The state binds the answer to this request (RFC 6749, section 10.12): anything else is refused.
  if (q.get('state') !== state)
    throw new CarteError(
      'denied',
      `the sign-in answer for server "${serverId}" carried the wrong state; it was refused`,
    );
  const iss = q.get('iss');
  return { code: q.get('code') ?? '', ...(iss ? { iss } : {}) };
}
