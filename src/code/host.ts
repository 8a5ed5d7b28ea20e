// What a run sees of the world outside the interpreter, and what it gives back.
import { CarteError } from '../errors.js';

/** What a script can reach outside itself: tool calls and search, each ended by `signal` when the run ends. */
export interface ScriptHost {
  call(key: string, args: unknown, signal: AbortSignal): Promise<unknown>;
  search(query: unknown, limit: unknown, signal: AbortSignal): Promise<unknown>;
}

/** A tool's own error result (`isError: true`), thrown into the script as an Error with code `tool_error`. */
export class ScriptToolError extends Error {
  readonly code = 'tool_error';
}

/** How a run ended well: the returned value as JSON text (undefined when it returned nothing) and its log lines. */
export interface ScriptResult {
  json: string | undefined;
  logs: string[];
  /** Log lines dropped past LOG_MAX_CHARS. */
  droppedLogs: number;
  calls: number;
}

/** What a failed run had logged: in its error's details, so the answer can still show it. */
export interface FailedRunLogs {
  logs: string[];
  droppedLogs: number;
}

/** The run's error with the lines it logged before it failed (details.logs, details.droppedLogs). */
export function withLogs(err: CarteError, logs: string[], droppedLogs: number): CarteError {
  if (logs.length === 0 && droppedLogs === 0) return err;
  return new CarteError(err.code, err.message, {
    cause: err.cause ?? err,
    details: { ...err.details, logs, droppedLogs },
    operatorMessage: err.operatorMessage,
  });
}

/** The logs a failed run's error carries, if any. */
export function failedRunLogs(err: unknown): FailedRunLogs | undefined {
  if (!(err instanceof CarteError) || !Array.isArray(err.details?.logs)) return undefined;
  return { logs: err.details.logs as string[], droppedLogs: Number(err.details.droppedLogs ?? 0) };
}
