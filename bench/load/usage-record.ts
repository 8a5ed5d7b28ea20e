// The single usage record per call that came before the audit log (issue 14): time the call,
// classify its outcome, size its result, write one row afterwards; a failed write only warns.
// The gateway no longer runs it (gateway/audit.ts writes a `started` row first and refuses a call
// whose row fails); activity-write.ts and audit-write.ts keep it as the baseline they measured the
// audit against, so their numbers in docs/benchmarks.md can be run again.
import { toCarteError } from '../../src/errors.js';
import { throttledWarn } from '../../src/gateway/shared/throttled-warn.js';
import type { CallOutcome } from '../../src/gateway/shared/types.js';
import { estimateJsonBytes, type CallTarget } from '../../src/gateway/trust/usage.js';
import type { ActivityOutcome, Store } from '../../src/store/index.js';
import type { Logger } from '../../src/upstream/index.js';

/** Where calls are recorded, and where a failed write is reported (throttled: one line a minute). */
export interface UsageRecorder {
  readonly activity: Pick<Store['activity'], 'record'>;
  readonly warn: (message: string) => void;
}

export function usageRecorder(store: Pick<Store, 'activity'>, logger: Logger): UsageRecorder {
  return { activity: store.activity, warn: throttledWarn(logger) };
}

/** Runs one call and records it after: `ok`, `tool_error` or the CarteError code, duration, result size. */
export async function recordCall(
  recorder: UsageRecorder,
  call: CallTarget,
  run: () => Promise<CallOutcome>,
): Promise<CallOutcome> {
  const at = Date.now();
  const start = performance.now();
  let result: CallOutcome;
  try {
    result = await run();
  } catch (err) {
    write(recorder, call, { at, durationMs: performance.now() - start, outcome: toCarteError(err).code });
    throw err;
  }
  const durationMs = performance.now() - start;
  const outcome = result.isError === true ? 'tool_error' : 'ok';
  write(recorder, call, { at, durationMs, outcome, resultBytes: estimateJsonBytes(result) });
  return result;
}

function write(
  recorder: UsageRecorder,
  call: CallTarget,
  e: { at: number; durationMs: number; outcome: ActivityOutcome; resultBytes?: number },
): void {
  try {
    recorder.activity.record({ kind: 'call', key: call.key, server: call.server, ...e });
  } catch (err) {
    recorder.warn(`cannot record tool calls in the activity table: ${(err as Error).message}`);
  }
}
