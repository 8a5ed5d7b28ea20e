// Runs one script in QuickJS compiled to WebAssembly (quickjs-emscripten, MIT; issue 43). Each
// run takes an instance no other run is using (instances.ts), and in it a fresh QuickJS runtime
// with its own heap limit, stack limit and interrupt handler. So concurrent runs share no memory
// at all, a run's heap is freed when it ends, and a fault that breaks an instance (the host's
// stack overflowing inside WebAssembly) breaks only that run's, which is then dropped.
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { CarteError, toCarteError } from '../errors.js';
import { returnInstance, takeInstance } from './instances.js';
import { PRELUDE } from './prelude.js';
import { ScriptToolError, withLogs, type ScriptHost, type ScriptResult } from './host.js';
import {
  callLimit,
  cancelledRun,
  LOG_MAX_CHARS,
  memoryLimit,
  stackLimit,
  STACK_BYTES,
  timeLimit,
  type ScriptLimits,
} from './limits.js';

// The WebAssembly global, typed here: the project's lib has no DOM types.
declare const WebAssembly: { RuntimeError: new () => Error };

/** The stack limit of a stopped run: one byte, so no JS or built-in function can start (0 would mean no limit). */
const NO_STACK = 1;

/** Runs `code` as the body of an async function; resolves with its answer or rejects with a CarteError naming the limit it hit. */
export async function runScript(
  code: string,
  host: ScriptHost,
  limits: ScriptLimits,
  signal?: AbortSignal,
): Promise<ScriptResult> {
  const wasm = await takeInstance();
  if (signal?.aborted) {
    returnInstance(wasm, true);
    throw cancelledRun();
  }
  const run = new Run(wasm, host, limits);
  try {
    return await run.execute(code, signal);
  } finally {
    returnInstance(wasm, run.dispose());
  }
}

class Run {
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly deadline: number;
  /** Set once the run must stop: the interrupt handler ends the script, and no call starts. */
  private stopped: CarteError | undefined;
  private readonly stop = new AbortController();
  private wake: (() => void) | undefined;
  /** Ids of the calls the script is waiting on. */
  private readonly pending = new Set<number>();
  /** The prelude's function that settles a call by id (bound once, kept for the run). */
  private settleFn: QuickJSHandle | undefined;
  private readonly logs: string[] = [];
  private logChars = 0;
  private droppedLogs = 0;
  private calls = 0;
  /** The host's stack overflowed inside WebAssembly: the instance is unusable and is dropped, not disposed. */
  private broken = false;
  /** The script's function has returned or thrown: what it left pending may run, but starts no call. */
  private returned = false;
  /** The run is being torn down (its answer is in): halting it then need not stop the script. */
  private ending = false;

  constructor(
    wasm: QuickJSWASMModule,
    private readonly host: ScriptHost,
    private readonly limits: ScriptLimits,
  ) {
    this.deadline = Date.now() + limits.timeoutMs;
    this.runtime = wasm.newRuntime();
    this.runtime.setMemoryLimit(limits.memoryBytes);
    this.runtime.setMaxStackSize(limits.stackBytes ?? STACK_BYTES);
    this.context = this.runtime.newContext();
    this.runtime.setInterruptHandler(() => {
      if (this.stopped === undefined && Date.now() > this.deadline) this.halt(timeLimit(limits.timeoutMs));
      return this.stopped !== undefined;
    });
  }

  async execute(code: string, signal: AbortSignal | undefined): Promise<ScriptResult> {
    const onAbort = () => this.halt(cancelledRun());
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => this.halt(timeLimit(this.limits.timeoutMs)), this.limits.timeoutMs);
    try {
      return await this.guarded(code);
    } catch (err) {
      throw withLogs(this.hostFault(err), this.logs, this.droppedLogs);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private async guarded(code: string): Promise<ScriptResult> {
    {
      const ended = new Promise<void>((resolve) => (this.wake = resolve));
      if (this.stopped) throw this.stopped;
      this.install(code);
      const started = this.context.evalCode(PRELUDE, 'run_code.js');
      if (started.error) throw this.failure(started.error);
      const settled = this.context.resolvePromise(started.value);
      started.value.dispose();
      this.drain();
      const outcome = await Promise.race([settled, ended.then(() => undefined)]);
      if (this.stopped || !outcome) throw this.stopped ?? timeLimit(this.limits.timeoutMs);
      if (outcome.error) throw this.failure(outcome.error);
      const answer: unknown = this.context.dump(outcome.value);
      outcome.value.dispose();
      if (answer !== undefined && typeof answer !== 'string')
        throw new CarteError(
          'script_error',
          'the script replaced Promise.prototype.then, so its answer could not be read',
        );
      return { json: answer, logs: this.logs, droppedLogs: this.droppedLogs, calls: this.calls };
    }
  }

  /**
   * An error thrown by the WebAssembly instance itself, not by the script: the host's stack
   * overflowed in QuickJS's own recursion (JSON.parse of deep nesting, say) before QuickJS's
   * stack limit saw it. The instance is left mid-function, so it is never entered again.
   */
  private hostFault(err: unknown): CarteError {
    if (err instanceof CarteError) return err;
    this.broken = true;
    this.halt(stackLimit());
    if (err instanceof RangeError) return stackLimit();
    if (err instanceof WebAssembly.RuntimeError && /memory|unreachable/i.test(err.message))
      return memoryLimit(this.limits.memoryBytes);
    return new CarteError(
      'internal',
      `internal error (a bug): the script interpreter failed: ${String(err)}`,
      { cause: err },
    );
  }

  /**
   * Ends the run: waiting ends, calls in flight are aborted, and the script is stopped for good.
   * QuickJS's interrupt is uncatchable by try/catch, but a Promise executor, an async function or
   * a promise job turns it into a rejection the script can handle, and the code around it runs on
   * (an executor in an endless loop kept Carte's event loop blocked for ever). So the stack limit
   * drops to nothing as well: no function, the script's or a built-in, can start again, and the
   * interrupt, raised at every check from now on, unwinds the frames left within one check each.
   */
  private halt(reason: CarteError): void {
    this.stopped ??= reason;
    this.stop.abort();
    this.wake?.();
    if (!this.broken && !this.ending) this.runtime.setMaxStackSize(NO_STACK);
  }

  private install(code: string): void {
    const ctx = this.context;
    const codeHandle = ctx.newString(code);
    ctx.setProp(ctx.global, '__carte_code', codeHandle);
    codeHandle.dispose();
    const log = ctx.newFunction('log', (line) => {
      this.log(ctx.getString(line));
    });
    ctx.setProp(ctx.global, '__carte_log', log);
    log.dispose();
    const done = ctx.newFunction('done', () => {
      this.returned = true;
    });
    ctx.setProp(ctx.global, '__carte_done', done);
    done.dispose();
    const bind = ctx.newFunction('bind', (fn) => {
      this.settleFn ??= fn.dup();
    });
    ctx.setProp(ctx.global, '__carte_bind', bind);
    bind.dispose();
    const bridge = ctx.newFunction('host', (op, payload, id) => {
      this.bridge(ctx.getString(op), ctx.getString(payload), ctx.getNumber(id));
    });
    ctx.setProp(ctx.global, '__carte_host', bridge);
    bridge.dispose();
  }

  private log(line: string): void {
    if (this.logChars + line.length > LOG_MAX_CHARS) return void this.droppedLogs++;
    this.logChars += line.length;
    this.logs.push(line);
  }

  /**
   * One call or search from the script, `id` its promise inside: the host's answer goes back as
   * JSON text to the prelude's settle function. One string each way per call, and no promise
   * made through the API (each costs handles and a call into WebAssembly).
   */
  private bridge(op: string, payload: string, id: number): void {
    if (!this.returned && ++this.calls > this.limits.maxCalls)
      return this.halt(callLimit(this.limits.maxCalls));
    this.pending.add(id);
    this.ask(op, payload).then(
      (value) => this.settle(id, { ok: true, value }),
      (err: unknown) => {
        const e = err instanceof ScriptToolError ? err : toCarteError(err);
        this.settle(id, { ok: false, message: e.message, code: e.code });
      },
    );
  }

  private settle(id: number, reply: object): void {
    if (this.stopped || !this.pending.delete(id) || !this.settleFn) return;
    const ctx = this.context;
    const idHandle = ctx.newNumber(id);
    const text = ctx.newString(JSON.stringify(reply));
    try {
      const r = ctx.callFunction(this.settleFn, ctx.undefined, idHandle, text);
      if (r.error) return this.halt(this.failure(r.error));
      r.value.dispose();
    } catch (err) {
      return this.halt(this.hostFault(err));
    } finally {
      if (!this.broken) {
        idHandle.dispose();
        text.dispose();
      }
    }
    this.drain();
  }

  private ask(op: string, payload: string): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped); // nothing starts once the run has ended
    if (this.returned)
      return Promise.reject(
        new CarteError('cancelled', 'the script has returned: no call starts after its answer'),
      );
    const p = JSON.parse(payload) as { key?: unknown; args?: unknown; query?: unknown; limit?: unknown };
    return op === 'call'
      ? this.host.call(String(p.key), p.args, this.stop.signal)
      : this.host.search(p.query, p.limit, this.stop.signal);
  }

  /** Runs the jobs the script queued; an interrupted or failed job ends the run. */
  private drain(): void {
    if (this.stopped) return;
    try {
      const result = this.runtime.executePendingJobs();
      if (result.error) this.halt(this.failure(result.error));
    } catch (err) {
      this.halt(this.hostFault(err));
    }
  }

  /** The script's uncaught error as a CarteError, naming the limit when one was hit. */
  private failure(handle: { dispose(): void }): CarteError {
    if (this.stopped) {
      handle.dispose();
      return this.stopped;
    }
    let name = 'Error';
    let message: string;
    try {
      const dumped: unknown = this.context.dump(handle as never);
      if (typeof dumped === 'object' && dumped !== null) {
        const d = dumped as { name?: unknown; message?: unknown };
        name = typeof d.name === 'string' ? d.name : 'Error';
        message = typeof d.message === 'string' ? d.message : '';
      } else message = String(dumped);
    } catch {
      message = 'out of memory'; // reading the error itself failed: the heap is full
    } finally {
      handle.dispose();
    }
    if (/out of memory/i.test(message)) return memoryLimit(this.limits.memoryBytes);
    if (/stack overflow/i.test(message)) return stackLimit();
    if (message === 'interrupted') return timeLimit(this.limits.timeoutMs);
    return new CarteError('script_error', `the script failed: ${name}: ${message}`.slice(0, 2000));
  }

  /**
   * Frees the run's runtime and context; true when the instance may serve another run: the run
   * hit no limit and was not stopped, and QuickJS freed everything without complaint. (An
   * interrupted async function stays suspended with its objects, which QuickJS's teardown asserts
   * against, aborting the instance: such an instance is dropped whole.)
   */
  dispose(): boolean {
    const stoppedEarly = this.stopped !== undefined;
    this.ending = true;
    this.halt(this.stopped ?? new CarteError('cancelled', 'the run has ended'));
    if (this.broken) return false; // dropped whole with its instance
    try {
      this.runtime.setMaxStackSize(this.limits.stackBytes ?? STACK_BYTES); // teardown runs finalizers
      this.settleFn?.dispose();
      this.context.dispose();
      this.runtime.dispose();
    } catch {
      this.broken = true;
    }
    this.pending.clear();
    return !stoppedEarly && !this.broken;
  }
}
