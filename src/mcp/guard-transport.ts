// Guards the stdio face against requests the SDK would drop without a word. The SDK's stdio
// transport refuses a message whose envelope fails its schema (e.g. `_meta.progressToken` that
// is neither a string nor an integer) while parsing it, through `onerror` only, so the client
// would wait forever for an answer. JSON-RPC 2.0 wants an Invalid Request error instead: the
// stdin filter below answers such a request itself and never passes its line on. It also hands a
// line that may be a plain `call_tool` (stdio-plain.ts) to `take` once parsed, so a call answered
// without the SDK's server is read once, not again by the SDK's transport (JSON, then its schema).
import { Transform, type Readable } from 'node:stream';
import { isObject } from './tool-call.js';

/** JSON-RPC 2.0 "Invalid Request". */
export const INVALID_REQUEST_CODE = -32600;

/** Lines longer than this pass through unread: the SDK's own 10 MiB read limit handles them. */
const MAX_INSPECTED_LINE = 10 * 1024 * 1024;

/** Why the SDK would drop this request's `_meta`, or undefined when it is fine (or not a request). */
export function envelopeProblem(message: unknown): string | undefined {
  if (!isObject(message) || typeof message.method !== 'string' || !('id' in message)) return undefined;
  const { params } = message;
  if (!isObject(params) || params._meta === undefined) return undefined;
  const meta = params._meta;
  if (!isObject(meta)) return 'params._meta must be an object';
  const token = meta.progressToken;
  if (token === undefined || typeof token === 'string' || Number.isSafeInteger(token)) return undefined;
  return 'params._meta.progressToken must be a string or an integer';
}

/** The Invalid Request answer to one stdin line, or undefined to pass the line on. */
export function refuseLine(line: string): { id: string | number; problem: string } | undefined {
  if (!line.includes('"_meta"')) return undefined; // the common case costs one substring search
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined; // not JSON: the SDK reports it
  }
  const problem = envelopeProblem(message);
  const id = (message as { id?: unknown }).id;
  if (problem === undefined || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  return { id, problem };
}

/** Answer for a refused request. */
export type RefusalSender = (answer: { id: string | number; code: number; message: string }) => void;

/** What the filter does with lines besides passing them on. */
export interface StdinHooks {
  /** Answers a refused request. */
  refuse: RefusalSender;
  /**
   * Offered each parsed line that may be a plain call (a `tools/call` without `_meta`); true when
   * it took the message, which then never reaches the SDK. Undefined: no line is parsed for it.
   */
  take?: () => ((message: unknown) => boolean) | undefined;
}

/** A plain call's line, parsed; undefined for any other line (most are not parsed at all). */
export function plainCandidate(line: string): unknown {
  if (!line.includes('"tools/call"') || line.includes('"_meta"')) return undefined;
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined; // not JSON: the SDK reports it
  }
}

/** `input` with every refused request line removed and answered through `hooks.refuse`, and taken lines removed. */
export function guardStdin(input: Readable, hooks: StdinHooks): Readable {
  const send = hooks.refuse;
  const taken = (text: string): boolean => {
    const take = hooks.take?.();
    if (take === undefined) return false;
    const message = plainCandidate(text);
    return message !== undefined && take(message);
  };
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let passing = false; // inside an over-long line: pass bytes on until its newline
  const filter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, nl + 1);
        start = nl + 1;
        if (passing) {
          this.push(piece);
          passing = false;
          continue;
        }
        const line = Buffer.concat([...pending, piece]);
        pending = [];
        pendingBytes = 0;
        const text = line.toString('utf8');
        const refused = refuseLine(text);
        if (refused === undefined && taken(text)) continue;
        if (refused)
          send({
            id: refused.id,
            code: INVALID_REQUEST_CODE,
            message: `Invalid Request: ${refused.problem}`,
          });
        else this.push(line);
      }
      const rest = chunk.subarray(start);
      if (passing) this.push(rest);
      else if (rest.length > 0) {
        pending.push(rest);
        pendingBytes += rest.length;
        if (pendingBytes > MAX_INSPECTED_LINE) {
          this.push(Buffer.concat(pending));
          pending = [];
          pendingBytes = 0;
          passing = true;
        }
      }
      done();
    },
    flush(done) {
      if (pending.length > 0) this.push(Buffer.concat(pending));
      done();
    },
  });
  input.on('error', (err) => filter.destroy(err));
  return input.pipe(filter);
}
