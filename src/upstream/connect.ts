import {
  type Client,
  type OAuthClientProvider,
  type DiscoverResult,
  type PriorDiscovery,
  type Transport,
} from '@modelcontextprotocol/client';
import { CarteError } from '../errors.js';
import { mapUpstreamError, withStderr } from './errors.js';
import { isAuthFailure, signInNeeded } from './oauth/sign-in-needed.js';
import type { StderrTail } from './stderr-tail.js';
import { createTransport, launchOf } from './transport.js';
import type { ConnectOptions, KnownEra, UpstreamTarget } from './types.js';

/** The first stateless revision: a stored version at or after it is "modern" (MCP-NOTES). */
const MODERN_REVISION = '2026-07-28';
/** Default bound on one upstream message (limits.maxResultBytes in the config). */
export const DEFAULT_MAX_MESSAGE = 8 * 1024 * 1024;

/** Connects `client` over the target's transport; remote targets without one try Streamable HTTP, then SSE. */
export async function connectWithFallback(
  client: Client,
  serverId: string,
  target: UpstreamTarget,
  stderr: StderrTail,
  options: ConnectOptions,
  prior: { prior?: PriorDiscovery },
  authProvider?: OAuthClientProvider,
): Promise<Transport> {
  const attempt = async (kind?: 'streamable-http' | 'sse'): Promise<Transport> => {
    const transport = await createTransport(target, stderr, {
      remoteKind: kind,
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE,
      serverId,
      authProvider,
    });
    try {
      await client.connect(transport, { timeout: options.timeoutMs, ...prior });
    } catch (err) {
      const launch = launchOf(transport);
      if (launch) setTimeout(() => launch.release(), 100).unref(); // after the child's exit
      throw err;
    }
    return transport;
  };
  try {
    // Remote targets without a transport: try Streamable HTTP, then legacy SSE (MCP spec, backwards compatibility).
    if (target.kind === 'remote' && !target.transport) {
      let first: unknown;
      try {
        return await attempt('streamable-http');
      } catch (err) {
        // A server that wants a sign-in said so: SSE would only say it again, less clearly.
        if (isAuthFailure(err) || httpStatus(err) === 403) throw err;
        first = err;
        options.logger.debug(`[${serverId}] Streamable HTTP failed (${(err as Error).message}); trying SSE`);
        await client.close().catch(() => undefined);
      }
      try {
        return await attempt('sse');
      } catch (err) {
        // What the Streamable HTTP endpoint answered is the news; the SSE attempt's error follows it.
        throw withSseAttempt(describeConnectError(first, serverId, target, options.timeoutMs), err);
      }
    }
    return await attempt();
  } catch (err) {
    await client.close().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50)); // let the child's last stderr lines arrive
    throw withStderr(describeConnectError(err, serverId, target, options.timeoutMs), stderr);
  }
}

function describeConnectError(
  err: unknown,
  serverId: string,
  target: UpstreamTarget,
  timeoutMs: number,
): CarteError {
  if (err instanceof CarteError) return err; // e.g. no sandbox can be had
  if (isAuthFailure(err)) return signInNeeded(serverId, err);
  const code = (err as { code?: unknown }).code;
  if (target.kind === 'stdio' && (code === 'ENOENT' || code === 'EACCES')) {
    const why = code === 'ENOENT' ? 'was not found' : 'is not executable';
    return new CarteError('upstream_unavailable', `server "${serverId}" cannot start: its command ${why}`, {
      cause: err,
      operatorMessage: `server "${serverId}" cannot start: command "${target.command}" ${why}`,
    });
  }
  const net = networkCode(err);
  if (target.kind === 'remote' && net) {
    const why = NET_ERRORS[net] ?? net;
    return new CarteError('upstream_unavailable', `server "${serverId}" cannot be reached: ${why}`, {
      cause: err,
      operatorMessage: `server "${serverId}" cannot be reached at ${safeUrl(target.url)}: ${why}`,
    });
  }
  const mapped = mapUpstreamError(err, serverId, 'initialize', timeoutMs);
  if (mapped.code === 'upstream_unavailable' && target.kind === 'stdio') {
    return new CarteError('upstream_unavailable', `server "${serverId}" exited before it finished starting`, {
      cause: err,
    });
  }
  return mapped;
}

/** The HTTP status an SDK transport error carries, if any. */
export function httpStatus(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** Adds what the SSE fallback said to the operator's message (agents read the first failure only). */
function withSseAttempt(err: CarteError, sse: unknown): CarteError {
  const why = sse instanceof CarteError ? sse.operatorMessage : (sse as Error)?.message;
  return new CarteError(err.code, err.message, {
    cause: err.cause,
    ...(err.details ? { details: err.details } : {}),
    operatorMessage: `${err.operatorMessage} (the SSE transport, tried next, failed too: ${why})`,
  });
}

const NET_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
};

/** The first network error code (ECONNREFUSED...) in an error's cause chain. */
function networkCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length) return networkCode(errors[0]);
  }
  return undefined;
}

/** Whether a connect failed because the pinned or assumed protocol era did not negotiate. */
export function isEraMismatch(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ERA_NEGOTIATION_FAILED' || code === -32022) return true;
    if (e instanceof Error && /negotiat|protocol version/i.test(e.message)) return true;
  }
  return false;
}

/**
 * The cached era verdict for `connect({prior})`: a stored discover result reconnects in the
 * modern era with no round trip; an older protocol version skips the probe and initializes.
 */
export function priorFrom(known: KnownEra | null): { prior?: PriorDiscovery } {
  if (!known) return {};
  if (known.discover && typeof known.discover === 'object') {
    return { prior: { kind: 'modern', discover: known.discover as DiscoverResult } };
  }
  const dated = /^\d{4}-\d{2}-\d{2}$/.test(known.version);
  if (known.version === 'legacy' || (dated && known.version < MODERN_REVISION))
    return { prior: { kind: 'legacy' } };
  return {};
}

/** A URL fit for a message: origin and path only, since the query or user info may hold a secret. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}
