// Rate limits for a team gateway (issue 40, item 5; docs/security.md, "Rate limits"): requests per
// minute per token (its own `--rate`, else its project's `rate`), and a lockout of a client address
// after too many failed sign-ins. Counted in fixed one-minute windows in the store (this process's
// memory on SQLite, a table every replica shares on PostgreSQL); the local user is never limited.
import { CarteError } from '../../errors.js';
import type { Store } from '../../store/index.js';
import type { CallerContext } from './context.js';

/**
 * One-minute windows; more than 10 failed sign-ins from an address in one get it a minute of 429
 * (from the 11th on, every request from it, good token or not, until the minute is over). Loopback
 * addresses are never locked out (isLocal).
 */
export const RATE_DEFAULTS = { windowMs: 60_000, authFailures: 10, lockoutMs: 60_000 } as const;

/** Which limit refused a request (the metric's label). */
export type RateLimitKind = 'token' | 'project' | 'project_total' | 'auth_failures';

/** One refusal, as the metrics count it. */
export interface RateRefusal {
  kind: RateLimitKind;
}

/** A project's request limits, per minute (`projects.<id>.rate`, else `http.rate`). */
export interface ProjectRate {
  /** Each of its tokens (and subjects) apart, unless a token has a rate of its own. */
  perToken?: number;
  /** All its callers together, tokens with a rate of their own included. */
  total?: number;
}

export interface RateLimiterOptions {
  /** A project's limits as configured now (Gateway.projectRate: a reload changes them). */
  projectRate: (projectId: string) => ProjectRate | undefined;
  now?: () => number;
  /** Hears a store failure (the request goes through: a limit is not worth refusing for). */
  warn?: (message: string) => void;
}

/** Requests per minute: "600/m", "10/s" (600 a minute). */
const RATE = /^([1-9]\d{0,8})\/(s|m|min)$/;

/** Parses a rate as `carte token create --rate` and `projects.<id>.rate` write it: requests per minute. */
export function parseRate(text: string): number {
  const m = RATE.exec(text.trim());
  if (!m)
    throw new CarteError(
      'bad_input',
      `a rate is requests per minute or second such as "600/m" or "10/s", not ${JSON.stringify(text)}`,
    );
  return Number(m[1]) * (m[2] === 's' ? 60 : 1);
}

/** Counts each request against its limits; refuses with `rate_limited` past one. */
export class RateLimiter {
  private readonly listeners = new Set<(r: RateRefusal) => void>();
  /** Blocks this process learned of, by address: checked for callers that have no limit. */
  private readonly blocks = new Map<string, number>();
  /** The window each key's refusal was last audited in: one row per key and window. */
  private readonly audited = new Map<string, number>();
  private pruned = 0;
  /** Audit rows being written (not awaited by their requests). */
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly store: Pick<Store, 'rates' | 'activity'>,
    private readonly opts: RateLimiterOptions,
  ) {}

  /** Calls `listener` with every refusal (the metrics). */
  onRefusal(listener: (r: RateRefusal) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Counts one request by `caller` from `address`; throws `rate_limited` when over a limit or the address is locked out. */
  async admit(caller: CallerContext, address: string): Promise<void> {
    const now = this.now();
    const own = caller.ratePerMinute;
    const project = this.opts.projectRate(caller.projectId);
    const limit = own ?? project?.perToken;
    const total = project?.total;
    if (limit === undefined && total === undefined) {
      const until = this.blocks.get(address);
      if (until !== undefined && until > now) throw this.lockedOut(address, until, now, caller);
      return;
    }
    const start = now - (now % RATE_DEFAULTS.windowMs);
    // One store step: the caller's own count (when it has a limit) and its project's total.
    const totalKey = total === undefined ? undefined : `total:${caller.projectId}`;
    const key = limit === undefined ? totalKey! : keyOf(caller);
    const also = limit === undefined ? undefined : totalKey;
    const hit = await this.guard(() =>
      this.store.rates.hit(key, start, {
        blockKey: blockKey(address),
        now,
        ...(also === undefined ? {} : { also }),
      }),
    );
    if (!hit) return;
    if (hit.blockedUntil !== null) throw this.lockedOut(address, hit.blockedUntil, now, caller);
    const until = start + RATE_DEFAULTS.windowMs;
    const at = { window: start, caller, until, now };
    if (limit !== undefined && hit.hits > limit) {
      const kind: RateLimitKind = own === undefined ? 'project' : 'token';
      const who = caller.tokenId !== undefined ? `token ${caller.tokenId}` : `project "${caller.projectId}"`;
      const message = `${who} made more than ${limit} requests this minute; retry in ${seconds(until - now)} s`;
      throw this.refuse({ kind, key, detail: `${kind} limit ${limit}/m`, message, ...at });
    }
    const totalHits = limit === undefined ? hit.hits : (hit.alsoHits ?? 0);
    if (total !== undefined && totalHits > total) {
      const message = `project "${caller.projectId}" made more than ${total} requests this minute, its tokens together; retry in ${seconds(until - now)} s`;
      const detail = `project total limit ${total}/m`;
      throw this.refuse({ kind: 'project_total', key: totalKey!, detail, message, ...at });
    }
  }

  /**
   * Counts a failed sign-in from `address`: the `rate_limited` error to answer with when the address
   * is locked out (this failure may be the one that locks it), else undefined (answer 401).
   */
  async failed(address: string): Promise<CarteError | undefined> {
    if (isLocal(address)) return undefined;
    const now = this.now();
    const start = now - (now % RATE_DEFAULTS.windowMs);
    const key = blockKey(address);
    const hit = await this.guard(() =>
      this.store.rates.hit(`fail:${address}`, start, { blockKey: key, now }),
    );
    if (!hit) return undefined;
    let until = hit.blockedUntil;
    if (until === null && hit.hits > RATE_DEFAULTS.authFailures) {
      until = now + RATE_DEFAULTS.lockoutMs;
      await this.guard(() => this.store.rates.block(key, until!));
    }
    return until === null ? undefined : this.lockedOut(address, until, now);
  }

  private lockedOut(address: string, until: number, now: number, caller?: CallerContext): CarteError {
    this.blocks.set(address, until);
    const message = `too many failed sign-ins from ${address}; retry in ${seconds(until - now)} s`;
    const detail = `address ${address}: more than ${RATE_DEFAULTS.authFailures} failed sign-ins a minute`;
    const window = until - RATE_DEFAULTS.lockoutMs; // one row per lockout
    const key = blockKey(address);
    return this.refuse({ kind: 'auth_failures', key, window, caller, detail, until, now, message });
  }

  private refuse(r: Refusal): CarteError {
    for (const listener of this.listeners) listener({ kind: r.kind });
    if (this.audited.get(r.key) !== r.window) {
      this.audited.set(r.key, r.window);
      this.record(r);
    }
    const retryAfterSeconds = seconds(r.until - r.now);
    return new CarteError('rate_limited', r.message, { details: { retryAfterSeconds } });
  }

  /** The refusal's audit row (not awaited by the request; a failed write only warns). */
  private record(r: Refusal): void {
    const c = r.caller;
    const who =
      c === undefined
        ? {}
        : { project: c.projectId, tokenId: c.tokenId, subject: c.subject, client: c.client };
    const event = {
      kind: 'auth',
      at: r.now,
      outcome: 'rate_limited',
      durationMs: 0,
      detail: r.detail,
    } as const;
    const write = this.store.activity
      .record({ ...event, ...who, requestId: c?.requestId })
      .catch((err: unknown) => {
        this.opts.warn?.(`cannot write a rate limit's audit row: ${(err as Error).message}`);
      })
      .finally(() => this.writing.delete(write));
    this.writing.add(write);
  }

  /** Resolves once the audit rows of refusals so far are written (tests, shutdown). */
  async settle(): Promise<void> {
    await Promise.all([...this.writing]);
  }

  /** Runs a store step; a failure lets the request through (logged), and old windows are pruned now and then. */
  private async guard<T>(step: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await step();
      this.prune();
      return value;
    } catch (err) {
      this.opts.warn?.(`rate limits not applied: the store failed: ${(err as Error).message}`);
      return undefined;
    }
  }

  private prune(): void {
    const now = this.now();
    if (now - this.pruned < RATE_DEFAULTS.windowMs) return;
    this.pruned = now;
    for (const [key, window] of this.audited)
      if (window < now - 2 * RATE_DEFAULTS.windowMs) this.audited.delete(key);
    for (const [address, until] of this.blocks) if (until <= now) this.blocks.delete(address);
    this.store.rates.prune(now - 2 * RATE_DEFAULTS.windowMs).catch(() => undefined);
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }
}

interface Refusal {
  kind: RateLimitKind;
  key: string;
  window: number;
  caller: CallerContext | undefined;
  detail: string;
  until: number;
  now: number;
  message: string;
}

/** Whose count a request adds to: its token, its identity provider subject, or its (anonymous) project. */
function keyOf(caller: CallerContext): string {
  if (caller.tokenId !== undefined) return `token:${caller.tokenId}`;
  if (caller.subject !== undefined) return `sub:${caller.subject}`;
  return `project:${caller.projectId}`;
}

/** The key of an address's lockout (its failures count under `fail:<address>`). */
const blockKey = (address: string) => `auth:${address}`;

/**
 * This machine (or no socket: an in-process request): never locked out. Its user can read the data
 * dir anyway, and a reverse proxy on the same host without `http.trustProxy` would otherwise lock
 * every client out at once.
 */
function isLocal(address: string): boolean {
  return address === 'unknown' || address === '::1' || /^(::ffff:)?127\./.test(address);
}

/** Whole seconds, at least 1 (Retry-After). */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
