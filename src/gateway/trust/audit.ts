// The audit log (issue 15, item 5): every call, search, browse, describe and admin action, with
// who asked (project, token id or an identity provider's subject and client, request id) and a
// digest of what with. A call's row is written before the call runs; a call whose row cannot be
// written is refused (docs/security.md, "Audit log").
import { hash } from 'node:crypto';
import { CarteError, nestingDepth, operatorMessage, toCarteError } from '../../errors.js';
import type { ActivityEvent, ActivityOutcome, StartedEvent, Store } from '../../store/index.js';
import type { Logger } from '../../upstream/index.js';
import type { CallerContext } from '../access/context.js';
import { redact, redactText } from '../../config/index.js';
import { throttledWarn } from '../shared/throttled-warn.js';
import type { CallOutcome } from '../shared/types.js';
import { estimateJsonBytes, type CallTarget } from './usage.js';

export type { AuditQuery, AuditRow } from '../../store/index.js';

/** What the audit keeps of arguments: a digest only, or also the arguments with secrets redacted. */
export interface AuditOptions {
  arguments: 'digest' | 'redacted';
}

export const AUDIT_DEFAULTS: AuditOptions = { arguments: 'digest' };

/**
 * Search, browse and describe events held while the store does not answer: about 3 MB of rows,
 * minutes of a busy replica's reads. Past it, reads are refused rather than their rows dropped.
 */
export const EVENT_BUFFER_MAX = 10_000;
/** How often the held events are tried again. */
const EVENT_RETRY_MS = 1_000;

/** The store's database does not answer (as opposed to refusing a write). */
const unavailable = (err: unknown) => err instanceof CarteError && err.code === 'store_unavailable';

/** Arguments deeper than this are recorded as TOO_DEEP, not digested. */
const MAX_DIGEST_DEPTH = 200;
const TOO_DEEP = 'too-deep';

/**
 * A non-call event. For `search`, `detail` is the query: stored as its digest, or redacted under
 * `arguments: redacted`. `auth` here is an upstream sign-in or sign-out (upstream-sign-in.ts).
 */
export interface AuditEvent {
  kind: 'search' | 'browse' | 'describe' | 'admin' | 'auth';
  key?: string;
  server?: string;
  detail?: string;
  outcome: ActivityOutcome;
  durationMs: number;
}

/** What an observer (metrics) sees of each audited event once it ended: never arguments or queries. */
export interface AuditObservation {
  kind: 'call' | 'code' | AuditEvent['kind'];
  key?: string;
  server?: string;
  outcome: ActivityOutcome;
  durationMs: number;
}

/**
 * What a `call` writes its row for: a tool call (kind `call`, the default), or a run_code script
 * (kind `code`: its key and server are not stored), and for a script's calls the script row's id.
 */
export interface AuditTarget extends CallTarget {
  args: unknown;
  kind?: 'call' | 'code';
  parentId?: number;
}

/** The audit log over the store's activity table, for the gateway's lifetime (its warning throttles outlive calls). */
export class AuditLog {
  private readonly warn: (message: string) => void;
  private readonly refusal: (message: string) => void;
  private readonly observers = new Set<(e: AuditObservation) => void>();
  /** Event rows being written (not awaited by their requests); `settle` waits for them. */
  private readonly writing = new Set<Promise<void>>();
  /** Event rows waiting for the store to answer again, oldest first (at most EVENT_BUFFER_MAX). */
  private readonly waiting: ActivityEvent[] = [];
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Pick<Store, 'activity'>,
    private readonly logger: Logger,
    private readonly opts: AuditOptions = AUDIT_DEFAULTS,
  ) {
    this.warn = throttledWarn(logger);
    this.refusal = throttledWarn({ ...logger, warn: (m) => logger.error(m) });
  }

  /**
   * Runs one upstream call between its two audit writes: a `started` row first (if that fails the
   * call is refused with a `store` error and `run` never runs), then its outcome (`ok`,
   * `tool_error`, or the CarteError code thrown), duration and result size. The result or error
   * passes through untouched; a failed finish is logged, and the `started` row stays as evidence.
   * Both writes are group commits on SQLite (store/sqlite/group-commit.ts): `run` starts only once
   * the `started` row is committed, and the result is returned once its outcome is written or its
   * failure to be written is logged (the database went away meanwhile: the `started` row stays).
   */
  async call(
    ctx: CallerContext,
    target: AuditTarget,
    run: (id: number) => Promise<CallOutcome>,
  ): Promise<CallOutcome> {
    const { key, server } = target;
    const kind = target.kind ?? 'call';
    let id: number;
    try {
      const args = this.argColumns(target.args);
      id = await this.store.activity.beginGrouped({
        kind,
        at: Date.now(),
        ...(kind === 'call' ? { key, server } : {}),
        ...this.who(ctx),
        ...args,
        ...(target.parentId === undefined ? {} : { parentId: target.parentId }),
      });
    } catch (err) {
      // One line per reason (the key would defeat the throttle: a broken store fails every call).
      this.refusal(`refusing tool calls: cannot write their audit rows: ${operatorMessage(err)}`);
      throw new CarteError(
        unavailable(err) ? 'store_unavailable' : 'store',
        `the call to "${target.key}" was refused: its audit row could not be written`,
        {
          cause: err,
          operatorMessage: `the call to "${target.key}" was refused: its audit row could not be written (${operatorMessage(err)})`,
        },
      );
    }
    const start = performance.now();
    let result: CallOutcome;
    try {
      result = await run(id);
    } catch (err) {
      const failure = toCarteError(err);
      const end = { outcome: failure.code, durationMs: performance.now() - start };
      await this.finish(id, target.key, { ...end, detail: this.failureDetail(failure, server) });
      this.notify({ kind, key, server, ...end });
      throw err;
    }
    const durationMs = performance.now() - start; // before sizing: the duration is the upstream's
    const outcome = result.isError === true ? 'tool_error' : 'ok';
    await this.finish(id, target.key, { outcome, durationMs, resultBytes: estimateJsonBytes(result) });
    this.notify({ kind, key, server, outcome, durationMs });
    return result;
  }

  /**
   * Records a non-call event without making the request wait. While the store does not answer,
   * rows wait in a bounded buffer and are written, in order, once it does; with the buffer full
   * the event's request is refused (`store_unavailable`) rather than its row dropped. Any other
   * failed write only warns (throttled): reads are not refused for want of a row.
   */
  event(ctx: CallerContext, e: AuditEvent): void {
    if (this.waiting.length >= EVENT_BUFFER_MAX)
      throw new CarteError(
        'store_unavailable',
        `the store does not answer and ${EVENT_BUFFER_MAX} audit events wait for it; retry shortly`,
      );
    this.notify({ kind: e.kind, key: e.key, server: e.server, outcome: e.outcome, durationMs: e.durationMs });
    const detail = e.detail === undefined ? undefined : this.detail(e.kind, e.detail);
    const row = { ...e, ...this.who(ctx), ...(detail === undefined ? {} : { detail }) };
    if (this.waiting.length > 0) return void this.waiting.push(row); // keep their order
    this.track(
      this.store.activity.record(row).catch((err: unknown) => {
        if (unavailable(err)) return this.hold(row);
        this.warn(`cannot write ${e.kind} events to the audit log: ${operatorMessage(err)}`);
      }),
    );
  }

  /** Audit events waiting for the store to answer again. */
  get buffered(): number {
    return this.waiting.length;
  }

  private hold(row: ActivityEvent): void {
    this.waiting.push(row);
    this.retry ??= setTimeout(() => this.track(this.drain()), EVENT_RETRY_MS).unref();
  }

  /** Writes the waiting rows in order; stops (and tries again later) at the first that fails. */
  private async drain(): Promise<void> {
    this.retry = undefined;
    while (this.waiting.length > 0) {
      try {
        await this.store.activity.record(this.waiting[0]!);
      } catch (err) {
        if (!unavailable(err)) {
          this.warn(`cannot write buffered audit events: ${operatorMessage(err)}`);
          this.waiting.shift();
          continue;
        }
        this.retry = setTimeout(() => this.track(this.drain()), EVENT_RETRY_MS).unref();
        return;
      }
      this.waiting.shift();
    }
  }

  private track(write: Promise<void>): void {
    const tracked = write.finally(() => this.writing.delete(tracked));
    this.writing.add(tracked);
  }

  /**
   * Waits for the event rows still being written (before the store closes), and tries once more
   * to write those waiting for the store; what still cannot be written is logged by count.
   */
  async settle(): Promise<void> {
    while (this.writing.size > 0) await Promise.all([...this.writing]);
    if (this.waiting.length === 0) return;
    clearTimeout(this.retry);
    await this.drain();
    clearTimeout(this.retry);
    this.retry = undefined;
    if (this.waiting.length > 0)
      this.logger.error(
        `${this.waiting.length} audit events could not be written: the store does not answer`,
      );
  }

  /** Calls `listener` after each event ends (metrics); returns a function that stops it. */
  onEvent(listener: (e: AuditObservation) => void): () => void {
    this.observers.add(listener);
    return () => this.observers.delete(listener);
  }

  /** A failing observer is a bug in it: logged, never the caller's failure. */
  private notify(e: AuditObservation): void {
    for (const l of this.observers) {
      try {
        l(e);
      } catch (err) {
        this.warn(`an audit observer failed: ${operatorMessage(err)}`);
      }
    }
  }

  private async finish(
    id: number,
    key: string,
    end: { outcome: ActivityOutcome; durationMs: number; resultBytes?: number; detail?: string },
  ): Promise<void> {
    try {
      if (!(await this.store.activity.finishGrouped(id, end)))
        this.warn(`the audit row of a call to "${key}" was gone before it finished (pruned?)`);
    } catch (err) {
      this.warn(`cannot finish audit rows of tool calls (they stay "started"): ${operatorMessage(err)}`);
    }
  }

  private who(
    ctx: CallerContext,
  ): Pick<StartedEvent, 'project' | 'tokenId' | 'requestId' | 'subject' | 'client'> {
    return {
      project: ctx.projectId,
      ...(ctx.tokenId === undefined ? {} : { tokenId: ctx.tokenId }),
      ...(ctx.requestId === undefined ? {} : { requestId: ctx.requestId }),
      ...(ctx.subject === undefined ? {} : { subject: ctx.subject }),
      ...(ctx.client === undefined ? {} : { client: ctx.client }),
    };
  }

  private argColumns(args: unknown): Pick<StartedEvent, 'argsDigest' | 'args'> {
    const value = args ?? {};
    // Arguments nested past any schema's depth are refused by the call itself; digest a marker
    // rather than recurse 10,000 levels (the audit row must still be written).
    if (nestingDepth(value, MAX_DIGEST_DEPTH) > MAX_DIGEST_DEPTH) return { argsDigest: TOO_DEEP };
    const digest = argsDigest(value);
    return this.opts.arguments === 'redacted'
      ? { argsDigest: digest, args: JSON.stringify(redact(value)) }
      : { argsDigest: digest };
  }

  /**
   * A failed call's `detail`: the message its caller got, redacted as every detail. An upstream's
   * own error text may repeat an argument: under `arguments: digest` only its code is kept. A
   * tool's own error answer (tool_error) is its result, which the audit never keeps.
   */
  private failureDetail(failure: CarteError, server: string): string {
    const code = failure.details?.upstreamCode;
    if (typeof code === 'number' && this.opts.arguments === 'digest')
      return `server "${server}" answered with error ${code} (its text is kept under audit.arguments: redacted)`;
    return redactText(failure.message);
  }

  /** A search's query is private to its caller: its digest, or redacted text when arguments are kept. */
  private detail(kind: AuditEvent['kind'], text: string): string {
    if (kind === 'search' && this.opts.arguments === 'digest') return argsDigest(text);
    return redactText(text);
  }
}

/** sha256 of the value's canonical JSON (object keys sorted at every depth), hex, first 16 characters. */
export function argsDigest(value: unknown): string {
  // The one-shot hash: no Hash object per call (~3 µs of a proxied call, docs/benchmarks.md).
  return hash('sha256', canonicalJson(value), 'hex').slice(0, 16);
}

/** JSON with every object's keys sorted, so equal arguments written in another order digest alike. */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_k, v: unknown) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
      const keys = Object.keys(v);
      // Already in order (most arguments: one or two keys): serialised as is, no sorted copy.
      if (keys.every((k, i) => i === 0 || keys[i - 1]! <= k)) return v;
      const sorted: Record<string, unknown> = {};
      for (const k of keys.sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }) ?? 'null'
  );
}
