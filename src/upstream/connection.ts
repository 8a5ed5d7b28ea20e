import {
  Client,
  type DiscoverResult,
  type PriorDiscovery,
  type Transport,
} from '@modelcontextprotocol/client';
import { CarteError } from '../errors.js';
import { mapUpstreamError } from './errors.js';
import { StderrTail } from './stderr-tail.js';
import { createTransport, transportPid } from './transport.js';
import type { CallOptions, ConnectOptions, KnownEra, UpstreamTarget } from './types.js';

const CLIENT_INFO = { name: 'carte', version: '0.1.0' };
/** Pages of tools/list we follow before deciding the upstream's cursor never ends. */
const MAX_LIST_PAGES = 1000;
/** The first stateless revision: a stored version at or after it is "modern" (MCP-NOTES). */
const MODERN_REVISION = '2026-07-28';
/** Default bound on one upstream message (limits.maxResultBytes in the config). */
const DEFAULT_MAX_MESSAGE = 8 * 1024 * 1024;

/** Facts learned at connect time. */
export interface UpstreamInfo {
  protocolEra: string;
  serverName?: string;
  serverVersion?: string;
  instructions?: string;
  capabilities: Record<string, unknown>;
  discoverResult?: unknown;
}

/** One live connection to an upstream MCP server. */
export class UpstreamConnection {
  private closed = false;
  /** The last transport-level error (bad JSON, an oversized message), to explain a sudden close. */
  private transportError: string | null = null;

  private constructor(
    readonly serverId: string,
    private readonly client: Client,
    private readonly transport: Transport,
    private readonly stderr: StderrTail,
    readonly info: UpstreamInfo,
    private readonly maxMessageBytes: number,
  ) {}

  /**
   * Connects (bounded by `timeoutMs`) and reads the server's identity. The protocol version
   * learned last time skips the era probe (a sibling spawn on stdio); if the server changed era
   * since, one more attempt negotiates afresh.
   */
  static async open(
    serverId: string,
    target: UpstreamTarget,
    options: ConnectOptions,
  ): Promise<UpstreamConnection> {
    const known = options.known ?? null;
    try {
      return await UpstreamConnection.attempt(serverId, target, options, known);
    } catch (err) {
      if (!known || !isEraMismatch(err)) throw err;
      options.logger.info(
        `[${serverId}] protocol version ${known.version} no longer negotiates; probing afresh`,
      );
      return UpstreamConnection.attempt(serverId, target, options, null);
    }
  }

  private static async attempt(
    serverId: string,
    target: UpstreamTarget,
    options: ConnectOptions,
    known: KnownEra | null,
  ): Promise<UpstreamConnection> {
    const stderr = new StderrTail(serverId, options.logger);
    const onChanged = options.onToolsChanged;
    const client = new Client(CLIENT_INFO, {
      versionNegotiation: { mode: 'auto', probe: { timeoutMs: Math.min(5000, options.timeoutMs) } },
      ...(onChanged
        ? { listChanged: { tools: { autoRefresh: false, debounceMs: 50, onChanged: () => onChanged() } } }
        : {}),
    });
    const transport = await connectWithFallback(client, serverId, target, stderr, options, priorFrom(known));
    const version = client.getServerVersion();
    const conn = new UpstreamConnection(
      serverId,
      client,
      transport,
      stderr,
      {
        protocolEra: client.getNegotiatedProtocolVersion() ?? client.getProtocolEra() ?? 'legacy',
        ...(version ? { serverName: version.name, serverVersion: version.version } : {}),
        ...(client.getInstructions() ? { instructions: client.getInstructions() } : {}),
        capabilities: client.getServerCapabilities() ?? {},
        ...(client.getDiscoverResult() ? { discoverResult: client.getDiscoverResult() } : {}),
      },
      options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE,
    );
    client.onclose = () => {
      const expected = conn.closed;
      conn.closed = true;
      options.onClose?.(expected);
    };
    client.onerror = (err) => {
      conn.transportError = err.message;
      options.logger.debug(`[${serverId}] transport: ${err.message}`);
    };
    return conn;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get pid(): number | null {
    return transportPid(this.transport);
  }

  stderrTail(lines = 5): string {
    return this.stderr.tail(lines);
  }

  /** Lists every tool, following `nextCursor` page by page. */
  async listTools(timeoutMs: number): Promise<Record<string, unknown>[]> {
    const tools: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await this.run('tools/list', timeoutMs, () =>
        this.client.request(
          { method: 'tools/list', params: cursor ? { cursor } : {} },
          { timeout: timeoutMs },
        ),
      );
      tools.push(...(result.tools as unknown as Record<string, unknown>[]));
      cursor = result.nextCursor;
      if (!cursor) return tools;
    }
    throw new CarteError(
      'upstream_error',
      `server "${this.serverId}" kept returning a tools/list cursor after ${MAX_LIST_PAGES} pages`,
    );
  }

  /** Calls a tool and returns the upstream's result object untouched. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<Record<string, unknown>> {
    const params: Record<string, unknown> = { name, arguments: args };
    if (options.meta && Object.keys(options.meta).length > 0) params._meta = options.meta;
    const result = await this.run(
      `tools/call "${name}"`,
      options.timeoutMs,
      () =>
        this.client.request(
          { method: 'tools/call', params },
          {
            timeout: options.timeoutMs,
            resetTimeoutOnProgress: true,
            ...(options.signal ? { signal: options.signal } : {}),
            ...(options.onProgress ? { onprogress: options.onProgress } : {}),
          },
        ),
      options.signal,
    );
    if (this.pid === null) this.checkSize(`the result of "${name}"`, result);
    return result;
  }

  /** Sends any other request (resources, prompts) and returns the raw result. */
  async request(
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const result = await this.run(
      method,
      timeoutMs,
      () =>
        this.client.request(
          { method: method as 'resources/list', params },
          { timeout: timeoutMs, ...(signal ? { signal } : {}) },
        ),
      signal,
    );
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client.close().catch(() => undefined);
  }

  private async run<T>(
    what: string,
    timeoutMs: number,
    fn: () => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    if (this.closed)
      throw new CarteError('upstream_unavailable', `server "${this.serverId}" is not connected`);
    try {
      return await fn();
    } catch (err) {
      // The SDK reports an aborted request like a timeout; the caller's signal tells them apart.
      if (signal?.aborted)
        throw new CarteError('cancelled', `${what} on server "${this.serverId}" was cancelled`, {
          cause: err,
        });
      if (this.transportError && /ReadBuffer|buffer size|exceed/i.test(this.transportError)) {
        throw new CarteError(
          'upstream_error',
          `server "${this.serverId}" sent a message over the ${this.maxMessageBytes}-byte limit during ${what} (limits.maxResultBytes); the connection was reset`,
          { cause: err },
        );
      }
      throw withStderr(mapUpstreamError(err, this.serverId, what, timeoutMs), this.stderr);
    }
  }

  /** HTTP results are not bounded by a read buffer: measure them. */
  private checkSize(what: string, result: unknown): void {
    const size = Buffer.byteLength(JSON.stringify(result) ?? '');
    if (size > this.maxMessageBytes) {
      throw new CarteError(
        'upstream_error',
        `server "${this.serverId}" sent ${what} of ${size} bytes, over the ${this.maxMessageBytes}-byte limit (limits.maxResultBytes)`,
      );
    }
  }
}

async function connectWithFallback(
  client: Client,
  serverId: string,
  target: UpstreamTarget,
  stderr: StderrTail,
  options: ConnectOptions,
  prior: { prior?: PriorDiscovery },
): Promise<Transport> {
  const attempt = async (kind?: 'streamable-http' | 'sse'): Promise<Transport> => {
    const transport = createTransport(target, stderr, {
      remoteKind: kind,
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE,
    });
    await client.connect(transport, { timeout: options.timeoutMs, ...prior });
    return transport;
  };
  try {
    // Remote targets without a transport: try Streamable HTTP, then legacy SSE (MCP spec, backwards compatibility).
    if (target.kind === 'remote' && !target.transport) {
      try {
        return await attempt('streamable-http');
      } catch (err) {
        options.logger.debug(`[${serverId}] Streamable HTTP failed (${(err as Error).message}); trying SSE`);
        await client.close().catch(() => undefined);
        return await attempt('sse');
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
  const code = (err as { code?: unknown }).code;
  if (target.kind === 'stdio' && (code === 'ENOENT' || code === 'EACCES')) {
    return new CarteError(
      'upstream_unavailable',
      `server "${serverId}" cannot start: command "${target.command}" ${code === 'ENOENT' ? 'was not found' : 'is not executable'}`,
      { cause: err },
    );
  }
  const net = networkCode(err);
  if (target.kind === 'remote' && net) {
    return new CarteError(
      'upstream_unavailable',
      `server "${serverId}" cannot be reached at ${target.url}: ${NET_ERRORS[net] ?? net}`,
      { cause: err },
    );
  }
  const mapped = mapUpstreamError(err, serverId, 'initialize', timeoutMs);
  if (mapped.code === 'upstream_unavailable' && target.kind === 'stdio') {
    return new CarteError('upstream_unavailable', `server "${serverId}" exited before it finished starting`, {
      cause: err,
    });
  }
  return mapped;
}

/** Appends the upstream's stderr tail to an error, once. */
function withStderr(err: CarteError, stderr: StderrTail): CarteError {
  const tail = stderr.tail();
  if (!tail || err.details?.stderr !== undefined || err.code === 'cancelled') return err;
  return new CarteError(
    err.code,
    `${err.message}; its stderr ends with: ${tail.replace(/\s*\n\s*/g, ' | ')}`,
    {
      cause: err.cause,
      details: { ...err.details, stderr: tail },
    },
  );
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
function isEraMismatch(err: unknown): boolean {
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
function priorFrom(known: KnownEra | null): { prior?: PriorDiscovery } {
  if (!known) return {};
  if (known.discover && typeof known.discover === 'object') {
    return { prior: { kind: 'modern', discover: known.discover as DiscoverResult } };
  }
  const dated = /^\d{4}-\d{2}-\d{2}$/.test(known.version);
  if (known.version === 'legacy' || (dated && known.version < MODERN_REVISION))
    return { prior: { kind: 'legacy' } };
  return {};
}
