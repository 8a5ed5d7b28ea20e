// What plain tools/call paths (plain-calls.ts over stdio, plain-http.ts over Streamable HTTP) share:
// a response's shape checked as the SDK's JSON-RPC schema would, and its result checked with the
// negotiated era's own codec, so a result (or its failure) reads exactly as through the SDK; the
// request's params and its timeout and abort errors, as the SDK makes them.
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { CallCodec } from './wire-codec.js';

export type Answer =
  | { result: Record<string, unknown>; error?: undefined }
  | { error: { code: number; message: string; data?: unknown } };

/** A well-formed JSON-RPC response's result or error (what the SDK's schema accepts), else undefined. */
export function responseOf(m: Record<string, unknown>): Answer | undefined {
  if ('result' in m) return !('error' in m) && isObject(m.result) ? { result: m.result } : undefined;
  const e = m.error;
  if (!isObject(e) || !Number.isInteger(e.code) || typeof e.message !== 'string') return undefined;
  return { error: { code: e.code as number, message: e.message, ...('data' in e ? { data: e.data } : {}) } };
}

/** The checked result of a response, or the SDK's error for it (a ProtocolError, an invalid result). */
export function checkedResult(
  codec: CallCodec,
  method: string,
  response: Answer,
): Record<string, unknown> | Error {
  if (response.error !== undefined) {
    const e = response.error;
    return ProtocolError.fromError(e.code, e.message, e.data);
  }
  let decoded: ReturnType<CallCodec['decodeResult']>;
  try {
    decoded = codec.decodeResult(method, response.result);
  } catch (err) {
    return asError(err);
  }
  if (decoded.kind !== 'complete') {
    return decoded.error instanceof Error
      ? decoded.error
      : new SdkError(SdkErrorCode.InvalidResult, `Invalid result for ${method}: ${decoded.kind}`);
  }
  const checked = codec.validateResult(method, decoded.result);
  if (checked.ok) return checked.value as Record<string, unknown>;
  const why = checked.reason === 'invalid' ? (checked.message ?? 'invalid') : `not-in-era: ${method}`;
  return new SdkError(SdkErrorCode.InvalidResult, `Invalid result for ${method}: ${why}`);
}

export const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** tools/call params as the SDK sends them: with a progress callback, the request id is the progress token. */
export function withProgressToken(
  params: Record<string, unknown>,
  id: number,
  wanted: boolean,
): Record<string, unknown> {
  return wanted
    ? { ...params, _meta: { ...(params._meta as object | undefined), progressToken: id } }
    : params;
}

/** The SDK's error for a call its signal aborted. */
export const abortedError = (signal: AbortSignal): SdkError =>
  new SdkError(SdkErrorCode.RequestTimeout, String(signal.reason));

/** The SDK's error for a call past its timeout (ms). */
export const timedOutError = (timeout: number): SdkError =>
  new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout });
