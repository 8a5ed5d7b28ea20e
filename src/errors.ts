/**
 * The one error model: CarteError carries a code from ERROR_CODES, and each face maps the code
 * to its own status (HTTP status, JSON-RPC code, CLI exit code) in exactly one place.
 */

/** Every gateway failure code, with how each face reports it. Exit codes follow sysexits.h. */
export const ERROR_CODES = {
  /** A config file is malformed, has unknown keys or breaks a cross-field rule. */
  bad_config: { http: 400, jsonrpc: -32602, exit: 78 },
  /** A caller passed a bad value (arguments that violate a schema, a bad flag, bad JSON). */
  bad_input: { http: 400, jsonrpc: -32602, exit: 64 },
  /** No tool with that key is in the catalog. */
  unknown_tool: { http: 404, jsonrpc: -32602, exit: 65 },
  /** No server with that id is configured. */
  unknown_server: { http: 404, jsonrpc: -32602, exit: 65 },
  /** The server is configured but disabled. */
  server_disabled: { http: 409, jsonrpc: -32001, exit: 69 },
  /** The upstream could not be started, its discovery failed, or it went away. */
  upstream_unavailable: { http: 502, jsonrpc: -32002, exit: 69 },
  /** The upstream answered a request with a protocol error. */
  upstream_error: { http: 502, jsonrpc: -32003, exit: 69 },
  /** A remote upstream answered HTTP 401: it needs a sign-in (`carte auth login <id>`), not a fix. */
  needs_sign_in: { http: 424, jsonrpc: -32010, exit: 77 },
  /**
   * An upstream answered a call with -32042 (MCP 2025-11-25): the user must open the pages in
   * `details.elicitations` in a browser first, then call again (relayed as -32042 to a client
   * that declared URL elicitation).
   */
  url_elicitation_required: { http: 424, jsonrpc: -32042, exit: 77 },
  /** An upstream did not answer in time. */
  timeout: { http: 504, jsonrpc: -32004, exit: 75 },
  /** The server's call slots and queue are full; retry later. */
  busy: { http: 429, jsonrpc: -32007, exit: 75 },
  /**
   * Too many requests: a token's or project's requests per minute, or a client address's failed
   * sign-ins (docs/security.md, "Rate limits"); `details.retryAfterSeconds` says when to retry.
   */
  rate_limited: { http: 429, jsonrpc: -32013, exit: 75 },
  /** The caller cancelled the request. */
  cancelled: { http: 499, jsonrpc: -32800, exit: 130 },
  /** No valid credentials: a missing, malformed, unknown, expired or revoked token. */
  unauthorized: { http: 401, jsonrpc: -32008, exit: 77 },
  /** The caller may not do this: a scope it lacks, a project's deny, a refused confirmation. */
  denied: { http: 403, jsonrpc: -32005, exit: 77 },
  /** The store could not be opened or written (locked, corrupt, newer schema). */
  store: { http: 500, jsonrpc: -32006, exit: 74 },
  /** The store's database does not answer (PostgreSQL away); the replica stays up: retry shortly. */
  store_unavailable: { http: 503, jsonrpc: -32009, exit: 69 },
  /** A run_code script failed: it threw, did not parse, or hit its memory, stack or call limit. */
  script_error: { http: 422, jsonrpc: -32011, exit: 65 },
  /** A bug: an invariant broke. The message says so and the stack is printed. */
  internal: { http: 500, jsonrpc: -32603, exit: 70 },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface CarteErrorOptions {
  cause?: unknown;
  /** Machine-readable extras (e.g. the list of schema violations, candidate keys). */
  details?: Record<string, unknown>;
  /**
   * The message as the operator may read it, with what an agent must not see (a command line, a
   * URL, a local path, an upstream's stderr). The CLI, the logs and `carte servers` show it; faces
   * that answer agents or the network show `message` only.
   */
  operatorMessage?: string;
}

/** The gateway's own failure. An upstream tool's `isError` result is not one: it passes through. */
export class CarteError extends Error {
  override readonly name = 'CarteError';
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  private readonly forOperator: string | undefined;

  constructor(code: ErrorCode, message: string, options: CarteErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.forOperator = options.operatorMessage;
  }

  /** The message with what only the operator may read (see CarteErrorOptions.operatorMessage). */
  get operatorMessage(): string {
    return this.forOperator ?? this.message;
  }
}

/** Any thrown value's message as the operator may read it (CLI, logs; never agents). */
export function operatorMessage(err: unknown): string {
  if (err instanceof CarteError) return err.operatorMessage;
  return err instanceof Error ? err.message : String(err);
}

/** Turns anything thrown into a CarteError; unknown throwables become `internal` (a bug). */
export function toCarteError(err: unknown): CarteError {
  if (err instanceof CarteError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new CarteError('internal', `internal error (a bug): ${message}`, { cause: err });
}

/** Quotes a value for an error message: JSON string form, cut to a readable length. */
export function quote(value: unknown, max = 80): string {
  return JSON.stringify(preview(value, max));
}

/**
 * A short text form of any value for a message: JSON cut to `max` characters. Never throws,
 * even for values nested too deep to stringify (it says so instead).
 */
export function preview(value: unknown, max = 60): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Array.isArray(value) ? '[…nested too deep…]' : '{…nested too deep…}';
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** How deeply a JSON value nests (1 for a scalar), counted without recursion. */
export function nestingDepth(value: unknown, stopAt = Infinity): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (d > max) max = d;
    if (max > stopAt) return max;
    if (v !== null && typeof v === 'object') for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}
