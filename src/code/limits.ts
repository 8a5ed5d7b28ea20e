// What a run may use, and the errors that name the limit a run hit.
import { CarteError } from '../errors.js';

/** A run's limits. Every run gets a fresh interpreter with these. */
export interface ScriptLimits {
  /** Wall time from start to answer, waiting on calls included. */
  timeoutMs: number;
  /** The interpreter's heap. */
  memoryBytes: number;
  /** Tool calls and searches the script may make. */
  maxCalls: number;
  /** The interpreter's stack: deep recursion ends here, far before the host's own stack. */
  stackBytes?: number;
}

/**
 * 256 KB of interpreter stack: some 1,300 frames of plain recursion. WebAssembly frames run on the
 * host's own stack (about 1 MB in Node), which 512 KB of QuickJS's already overflowed; past this,
 * QuickJS ends the recursion itself and the run's instance stays usable.
 */
export const STACK_BYTES = 256 * 1024;

/** Log text kept per run before lines are dropped (the answer is cut to tokens later anyway). */
export const LOG_MAX_CHARS = 1_000_000;

/** The run went past its time (the config key names the limit). */
export function timeLimit(ms: number): CarteError {
  return new CarteError(
    'timeout',
    `the script ran past its time limit of ${ms} ms (exposure.code.timeoutMs)`,
    {
      details: { limit: 'timeoutMs' },
    },
  );
}

export function memoryLimit(bytes: number): CarteError {
  const mb = Math.round(bytes / 2 ** 20);
  return new CarteError(
    'script_error',
    `the script ran out of memory: its limit is ${mb} MB (exposure.code.memoryMb)`,
    {
      details: { limit: 'memoryMb' },
    },
  );
}

export function stackLimit(): CarteError {
  return new CarteError('script_error', 'the script recursed too deeply: its stack overflowed', {
    details: { limit: 'stack' },
  });
}

export function callLimit(max: number): CarteError {
  return new CarteError('script_error', `the script made more than ${max} calls (exposure.code.maxCalls)`, {
    details: { limit: 'maxCalls' },
  });
}

export function cancelledRun(): CarteError {
  return new CarteError('cancelled', 'the script was cancelled by the client');
}
