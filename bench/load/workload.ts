// A closed loop: each worker calls, waits for the answer, calls again, until the deadline.
import type { Session } from './sessions.js';

export interface LoopStats {
  calls: number;
  ok: number;
  errors: number;
  /** Error code or message -> count. */
  errorKinds: Record<string, number>;
  /** Latency of every successful call, ms. */
  latencies: number[];
  elapsedMs: number;
}

export function emptyStats(): LoopStats {
  return { calls: 0, ok: 0, errors: 0, errorKinds: {}, latencies: [], elapsedMs: 0 };
}

/** Adds `b` into `a` (elapsed times add up: segments run one after another). */
export function mergeStats(a: LoopStats, b: LoopStats): LoopStats {
  const errorKinds = { ...a.errorKinds };
  for (const [k, n] of Object.entries(b.errorKinds)) errorKinds[k] = (errorKinds[k] ?? 0) + n;
  return {
    calls: a.calls + b.calls,
    ok: a.ok + b.ok,
    errors: a.errors + b.errors,
    errorKinds,
    latencies: a.latencies.concat(b.latencies),
    elapsedMs: a.elapsedMs + b.elapsedMs,
  };
}

export interface LoopOptions {
  key: string;
  /** Workers per session, each with one call in flight. */
  workers: number;
  durationMs: number;
  /** Stop early when `signal` aborts. */
  signal?: AbortSignal;
}

/** Runs the loop on every session at once and counts what came back. */
export async function runLoop(sessions: readonly Session[], opts: LoopOptions): Promise<LoopStats> {
  const stats = emptyStats();
  const start = performance.now();
  const deadline = start + opts.durationMs;
  let seq = 0;
  const worker = async (s: Session) => {
    while (performance.now() < deadline && !opts.signal?.aborted) {
      const message = `m${seq++}`;
      const t = performance.now();
      const r = await s.call(opts.key, { message });
      stats.calls++;
      if (r.ok) {
        stats.ok++;
        stats.latencies.push(performance.now() - t);
      } else {
        stats.errors++;
        const kind = r.error ?? 'unknown';
        stats.errorKinds[kind] = (stats.errorKinds[kind] ?? 0) + 1;
      }
    }
  };
  await Promise.all(sessions.flatMap((s) => Array.from({ length: opts.workers }, () => worker(s))));
  stats.elapsedMs = performance.now() - start;
  return stats;
}
