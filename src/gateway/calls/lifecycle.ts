import { CarteError } from '../../errors.js';

/** Restart and circuit-breaker constants (docs/operations.md explains them). */
export interface LifecycleOptions {
  /** First restart delay after a crash or failed start; doubles per consecutive failure. */
  backoffBaseMs: number;
  /** Longest restart delay. */
  backoffCapMs: number;
  /** Consecutive failures that open the circuit: calls then fail at once. */
  circuitThreshold: number;
  /** How long an open circuit fails fast before one trial start is let through. */
  circuitOpenMs: number;
}

export const LIFECYCLE_DEFAULTS: Readonly<LifecycleOptions> = {
  backoffBaseMs: 250,
  backoffCapMs: 30_000,
  circuitThreshold: 5,
  circuitOpenMs: 30_000,
};

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * The runtime life of one server: consecutive failures with exponential backoff and jitter, a
 * circuit breaker, a concurrency limit with a bounded queue, and the idle timer.
 */
export class ServerLife {
  failures = 0;
  lastError: string | null = null;
  starting = false;
  active = 0;
  private nextAttemptAt = 0;
  private openUntil = 0;
  private readonly queue: Waiter[] = [];
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly id: string,
    private readonly opts: LifecycleOptions = LIFECYCLE_DEFAULTS,
    private readonly random: () => number = Math.random,
  ) {}

  /** Records a crash or a failed start and schedules the next allowed attempt. */
  recordFailure(message: string, now = Date.now()): void {
    this.failures++;
    this.lastError = message;
    const delay = Math.min(this.opts.backoffCapMs, this.opts.backoffBaseMs * 2 ** (this.failures - 1));
    this.nextAttemptAt = now + delay / 2 + (this.random() * delay) / 2; // "equal jitter"
    if (this.failures >= this.opts.circuitThreshold) this.openUntil = now + this.opts.circuitOpenMs;
  }

  /** A call or listing worked: the server is healthy again. */
  recordSuccess(): void {
    this.failures = 0;
    this.lastError = null;
    this.nextAttemptAt = 0;
    this.openUntil = 0;
  }

  circuitOpen(now = Date.now()): boolean {
    return now < this.openUntil;
  }

  /** Waits out the backoff before a (re)start; fails at once while the circuit is open. */
  async beforeStart(now = Date.now()): Promise<void> {
    if (this.circuitOpen(now)) {
      const secs = Math.ceil((this.openUntil - now) / 1000);
      const head = `server "${this.id}" failed ${this.failures} times in a row`;
      throw new CarteError('upstream_unavailable', `${head}; not retrying for ${secs} s`, {
        details: { circuitOpen: true },
        operatorMessage: `${head} (last: ${this.lastError ?? 'unknown'}); not retrying for ${secs} s`,
      });
    }
    const wait = this.nextAttemptAt - now;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }

  /** Takes a call slot, waiting in the queue when all are busy; `busy` when the queue is full. */
  async acquire(maxConcurrency: number, maxQueue: number, signal?: AbortSignal): Promise<() => void> {
    this.clearIdle();
    if (this.active < maxConcurrency) {
      this.active++;
      return () => this.release();
    }
    if (this.queue.length >= maxQueue) {
      throw new CarteError(
        'busy',
        `server "${this.id}" is busy: ${this.active} ${this.active === 1 ? 'call' : 'calls'} running and ${this.queue.length} waiting (maxConcurrency ${maxConcurrency}, maxQueue ${maxQueue})`,
      );
    }
    if (signal?.aborted)
      throw new CarteError('cancelled', `a call waiting for server "${this.id}" was cancelled`);
    await new Promise<void>((resolve, reject) => {
      // The signal may outlive the call (one per HTTP connection): the listener goes when the wait ends.
      const onAbort = () => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(new CarteError('cancelled', `a call waiting for server "${this.id}" was cancelled`));
      };
      const waiter: Waiter = {
        resolve: () => (signal?.removeEventListener('abort', onAbort), resolve()),
        reject: (err) => (signal?.removeEventListener('abort', onAbort), reject(err)),
      };
      this.queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    this.active++;
    return () => this.release();
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Runs `close` after `ms` without calls (0 = never). */
  scheduleIdle(ms: number, close: () => void): void {
    this.clearIdle();
    if (ms <= 0 || this.active > 0) return;
    this.idleTimer = setTimeout(close, ms);
    this.idleTimer.unref();
  }

  clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private release(): void {
    this.active--;
    this.queue.shift()?.resolve();
  }
}
