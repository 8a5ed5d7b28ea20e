// Whether the hybrid's embeddings may be used, and when to try again after a failure: a small
// state machine with exponential backoff (issue 17 item 3, "a hybrid that heals").

/**
 * Backoff of the local model after a failure: attempt n waits min(capMs, baseMs × 2^(n−1)) after
 * the n-th failure (1 s, 2 s, 4 s … 5 min). Attempts never stop: a failed load costs little (an
 * import that fails fast, or one probe embedding), and giving up would need the restart this
 * avoids. Retries are driven by use (a search, `prepareSearch`, `carte doctor`), never by a timer,
 * so an idle gateway does no work and a zero delay cannot spin. See docs/search-providers.md,
 * "Degrading and healing".
 */
export const HYBRID_RETRY = { baseMs: 1000, capMs: 300_000 } as const;

export interface RetryPolicy {
  baseMs: number;
  capMs: number;
}

/** ok: embeddings may be used; degraded: waiting for the next attempt; retrying: an attempt is under way. */
export type HealthState = 'ok' | 'degraded' | 'retrying';

/** What status and search metadata show of a failure. */
export interface HealthReport {
  state: HealthState;
  /** The last failure's message (degraded, retrying). */
  reason?: string;
  /** Failures since the embeddings last worked. */
  failures: number;
  /** degraded: milliseconds until the next attempt may start (0: the next use starts it). */
  retryInMs?: number;
}

/** The delay before the attempt that follows the `failures`-th failure (failures >= 1). */
export function backoffMs(policy: RetryPolicy, failures: number): number {
  return Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
}

/** ok → (fail) → degraded → (due, begin) → retrying → (succeed) ok, or (fail) degraded with a longer wait. */
export class HybridHealth {
  private failures = 0;
  private reason: string | undefined;
  private nextAt = 0;
  private attempting = false;

  constructor(
    private readonly policy: RetryPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  get state(): HealthState {
    if (this.failures === 0) return 'ok';
    return this.attempting ? 'retrying' : 'degraded';
  }

  /** Records a failure; returns the wait before the next attempt. A failure while ok or retrying counts once. */
  fail(reason: string): number {
    this.failures++;
    this.reason = reason;
    this.attempting = false;
    const wait = backoffMs(this.policy, this.failures);
    this.nextAt = this.now() + wait;
    return wait;
  }

  /** Starts an attempt if one is due (degraded and its wait is over); true when it did. */
  beginIfDue(): boolean {
    if (this.state !== 'degraded' || this.now() < this.nextAt) return false;
    this.attempting = true;
    return true;
  }

  /** The embeddings work; returns how many failures came before (0: nothing to recover from). */
  succeed(): number {
    const before = this.failures;
    this.failures = 0;
    this.reason = undefined;
    this.attempting = false;
    return before;
  }

  report(): HealthReport {
    const { state, failures, reason } = this;
    if (state === 'ok') return { state, failures };
    const base = { state, failures, ...(reason === undefined ? {} : { reason }) };
    return state === 'degraded' ? { ...base, retryInMs: Math.max(0, this.nextAt - this.now()) } : base;
  }
}
