import { SdkError, SdkErrorCode, ProtocolError, SERVER_INFO_META_KEY } from '@modelcontextprotocol/client';
import { CarteError } from '../errors.js';
import { isAuthFailure, signInNeeded } from './oauth/sign-in-needed.js';
import type { StderrTail } from './stderr-tail.js';
import { URL_ELICITATION_REQUIRED, urlElicitationRequired } from './url-elicitation.js';

/** Maps an SDK or transport failure to the gateway's error model, naming the server. */
export function mapUpstreamError(
  err: unknown,
  serverId: string,
  what: string,
  timeoutMs?: number,
): CarteError {
  if (err instanceof CarteError) return err;
  if (isAuthFailure(err)) return signInNeeded(serverId, err);
  const status = (err as { status?: unknown } | null)?.status;
  if (err instanceof SdkError && typeof status === 'number' && status >= 400) {
    // Say what the server answered (not the transport's wording, e.g. "SSE error: Non-200 status code").
    const statusText = (err as { statusText?: unknown }).statusText;
    const answered = `HTTP ${status}${typeof statusText === 'string' && statusText ? ` ${statusText}` : ''}`;
    return new CarteError('upstream_error', `server "${serverId}" answered ${what} with ${answered}`, {
      cause: err,
      operatorMessage: `server "${serverId}" answered ${what} with ${answered}: ${err.message}`,
    });
  }
  if (err instanceof SdkError) {
    if (err.code === SdkErrorCode.RequestTimeout) {
      return new CarteError(
        'timeout',
        `server "${serverId}" did not answer ${what} within ${timeoutMs ?? '?'} ms`,
        { cause: err },
      );
    }
    if (
      err.code === SdkErrorCode.ConnectionClosed ||
      err.code === SdkErrorCode.NotConnected ||
      err.code === SdkErrorCode.SendFailed
    ) {
      return new CarteError(
        'upstream_unavailable',
        `server "${serverId}" closed the connection during ${what}`,
        { cause: err },
      );
    }
    return new CarteError('upstream_error', `server "${serverId}" failed ${what}`, {
      cause: err,
      operatorMessage: `server "${serverId}" failed ${what}: ${err.message}`,
    });
  }
  if (err instanceof ProtocolError && err.code === URL_ELICITATION_REQUIRED)
    return urlElicitationRequired(serverId, what, err.data, err);
  if (err instanceof ProtocolError) {
    return new CarteError(
      'upstream_error',
      `server "${serverId}" answered ${what} with error ${err.code}: ${err.message}`,
      {
        cause: err,
        details: { upstreamCode: err.code, upstreamData: err.data },
      },
    );
  }
  if (err instanceof Error && err.name === 'AbortError') {
    return new CarteError('cancelled', `${what} on server "${serverId}" was cancelled`, { cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  // An unknown failure's text may name a path or a command line: the operator reads it, agents do not.
  return new CarteError('upstream_unavailable', `server "${serverId}" failed ${what}`, {
    cause: err,
    operatorMessage: `server "${serverId}" failed ${what}: ${message}`,
  });
}

/** What a connection knows when one of its requests fails. */
export interface FailureContext {
  serverId: string;
  what: string;
  timeoutMs: number;
  /** The caller's signal was aborted: the SDK reports that like a timeout. */
  aborted: boolean;
  /** The last transport-level error (bad JSON, an oversized message). */
  transportError: string | null;
  maxMessageBytes: number;
  /** Which sandbox limit stopped the server, if one did. */
  limitHit: () => string | null;
  stderr: StderrTail;
}

/** The gateway's error for a failed request, with the upstream's stderr tail when there is one. */
export function explainFailure(err: unknown, c: FailureContext): CarteError {
  if (c.aborted) {
    return new CarteError('cancelled', `${c.what} on server "${c.serverId}" was cancelled`, { cause: err });
  }
  if (c.transportError && /ReadBuffer|buffer size|exceed/i.test(c.transportError)) {
    return new CarteError(
      'upstream_error',
      `server "${c.serverId}" sent a message over the ${c.maxMessageBytes}-byte limit during ${c.what} (limits.maxResultBytes); the connection was reset`,
      { cause: err },
    );
  }
  const mapped = mapUpstreamError(err, c.serverId, c.what, c.timeoutMs);
  const limit = mapped.code === 'upstream_unavailable' ? c.limitHit() : null;
  if (limit) {
    return new CarteError(
      'upstream_unavailable',
      `server "${c.serverId}" was stopped at ${limit} during ${c.what}; it starts again on the next call`,
      { cause: err },
    );
  }
  return withStderr(mapped, c.stderr);
}

/**
 * The server no longer knows our session: HTTP 404 (the spec's answer), or HTTP 400 naming the
 * session id (what servers built on the v1 SDK, the reference servers among them, answer).
 */
export function sessionLost(err: unknown): boolean {
  const e = err as { status?: unknown; message?: unknown } | null;
  if (e?.status === 404) return true;
  return e?.status === 400 && typeof e.message === 'string' && /session/i.test(e.message);
}

/**
 * The result without the upstream's own identity in `_meta` (a 2026-era server stamps it on every
 * result): what Carte answers is Carte's, and the SDK stamps Carte's only where none is set.
 */
export function withoutServerInfo(result: Record<string, unknown>): Record<string, unknown> {
  const meta = result._meta;
  if (typeof meta !== 'object' || meta === null || !(SERVER_INFO_META_KEY in meta)) return result;
  const { [SERVER_INFO_META_KEY]: _upstream, ...rest } = meta as Record<string, unknown>;
  const { _meta: _old, ...body } = result;
  return Object.keys(rest).length > 0 ? { ...body, _meta: rest } : body;
}

/** Appends the upstream's stderr tail to an error's operator message, once (agents never see it). */
export function withStderr(err: CarteError, stderr: StderrTail): CarteError {
  const tail = stderr.tail();
  if (!tail || err.operatorMessage.includes(STDERR_MARK) || err.code === 'cancelled') return err;
  return new CarteError(err.code, err.message, {
    cause: err.cause,
    ...(err.details ? { details: err.details } : {}),
    operatorMessage: `${err.operatorMessage}${STDERR_MARK}${tail.replace(/\s*\n\s*/g, ' | ')}`,
  });
}

const STDERR_MARK = '; its stderr ends with: ';

/** Refuses a result over `maxBytes` once serialized (`limits.maxResultBytes`). */
export function checkSize(serverId: string, what: string, result: unknown, maxBytes: number): void {
  const size = Buffer.byteLength(JSON.stringify(result) ?? '');
  if (size > maxBytes)
    throw new CarteError(
      'upstream_error',
      `server "${serverId}" sent ${what} of ${size} bytes, over the ${maxBytes}-byte limit (limits.maxResultBytes)`,
    );
}
