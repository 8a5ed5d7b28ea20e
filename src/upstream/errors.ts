import { SdkError, SdkErrorCode, ProtocolError } from '@modelcontextprotocol/client';
import { CarteError } from '../errors.js';
import { isAuthFailure, signInNeeded } from './oauth/sign-in-needed.js';

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
