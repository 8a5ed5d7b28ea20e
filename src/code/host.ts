// What a run sees of the world outside the interpreter, and what it gives back.

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
