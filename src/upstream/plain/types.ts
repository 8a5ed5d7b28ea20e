// The options of one tool call to an upstream, through the SDK or a plain call (re-exported by
// ../types.ts, as the oauth and sandbox rooms' own types are).

/** A progress update from an upstream, with the upstream's numbers. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** Per-call options. */
export interface CallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (p: ProgressUpdate) => void;
  /** Safe to send again after a lost HTTP session (the tool is read-only or idempotent). */
  idempotent?: boolean;
  /** `_meta` of the downstream request, minus its progress token (the SDK sets its own). */
  meta?: Record<string, unknown>;
}
