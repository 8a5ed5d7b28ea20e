import { Client, type StandardSchemaV1, type Transport } from '@modelcontextprotocol/client';
import { CarteError } from '../errors.js';
import { connectWithFallback, DEFAULT_MAX_MESSAGE, isEraMismatch, priorFrom } from './connect.js';
import { checkSize, explainFailure, sessionLost, withoutServerInfo } from './errors.js';
import { attachPlainCalls, type PlainCalls } from './plain/plain-calls.js';
import { attachPlainHttpCalls, type PlainHttpCalls } from './plain/plain-http.js';
import { UpstreamExtras } from './extras.js';
import { CallElicitations, FORM_ELICITATION } from './elicitation.js';
import { CarteOAuthProvider } from './oauth/provider.js';
import { bearerOf } from './oauth/bearer.js';
import { resultSchema } from './result-validator.js';
import { StderrTail } from './stderr-tail.js';
import { launchOf, stdioReadLimit, transportPid } from './transport.js';
import type { CallOptions, ConnectOptions, KnownEra, UpstreamTarget } from './types.js';

const CLIENT_INFO = { name: 'carte', version: '0.1.0' };
/** Pages of tools/list we follow before deciding the upstream's cursor never ends. */
const MAX_LIST_PAGES = 1000;

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
  /** Reopens the session of a remote upstream (set for HTTP targets only). */
  private redial?: () => Promise<{ client: Client; transport: Transport }>;
  private recovering?: Promise<void>;
  private options?: ConnectOptions;
  /** The last transport-level error (bad JSON, an oversized message), to explain a sudden close. */
  private transportError: string | null = null;
  /** tools/call's result schema for the current client (see result-validator.ts). */
  private callSchema?: { client: Client; schema: StandardSchemaV1 | undefined };
  /** tools/call without the SDK's request funnel: 2025-era stdio (plain-calls.ts) and HTTP (plain-http.ts). */
  private plain?: PlainCalls | PlainHttpCalls;
  /** Plain HTTP calls for a (re)dialled client, when the target allows them. */
  private plainHttp?: (client: Client, transport: Transport) => PlainHttpCalls | undefined;
  /** The upstream's log level and resource subscriptions (extras.ts). */
  readonly extras: UpstreamExtras;
  /** The calls in flight, to which an upstream's form elicitation goes (elicitation.ts). */
  private elicitations?: CallElicitations;
  /** Reads the server's sign-in again (one made or forgotten by another process); its next request uses it. */
  reloadSignIn: () => Promise<void> = () => Promise.resolve();

  private constructor(
    readonly serverId: string,
    private client: Client,
    private transport: Transport,
    private readonly stderr: StderrTail,
    readonly info: UpstreamInfo,
    private readonly maxMessageBytes: number,
  ) {
    this.extras = new UpstreamExtras(
      () => this.client,
      () => this.info.protocolEra,
      info.capabilities,
      (method, params, timeoutMs) => this.request(method, params, timeoutMs),
    );
  }

  /**
   * Connects (bounded by `timeoutMs`) and reads the server's identity. The protocol version
   * learned last time skips the era probe (a sibling spawn on stdio, in place when sandboxed); if
   * the server changed era since, one more attempt negotiates afresh.
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
      if (!isEraMismatch(err)) throw err;
      if (known) {
        options.logger.info(
          `[${serverId}] protocol version ${known.version} no longer negotiates; probing afresh`,
        );
        return UpstreamConnection.attempt(serverId, target, options, null);
      }
      // A sandboxed server probes in place (transport.ts): one that exits on server/discover is legacy.
      if (target.kind !== 'stdio' || !target.sandbox) throw err;
      options.logger.info(`[${serverId}] closed on the era probe; starting it again in the 2025 era`);
      return UpstreamConnection.attempt(serverId, target, options, { version: 'legacy' });
    }
  }

  private static async attempt(
    serverId: string,
    target: UpstreamTarget,
    options: ConnectOptions,
    known: KnownEra | null,
  ): Promise<UpstreamConnection> {
    const stderr = new StderrTail(serverId, options.logger);
    // One OAuth client per connection, shared by its redials: it holds the refresh in flight.
    const auth =
      target.kind === 'remote' && options.oauth
        ? await CarteOAuthProvider.open(serverId, options.oauth)
        : undefined;
    const elicitations = options.elicitation ? new CallElicitations(serverId) : undefined;
    const { client, transport } = await UpstreamConnection.dial(
      serverId,
      target,
      options,
      stderr,
      known,
      auth,
      elicitations,
    );
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
    conn.wire(client, options);
    conn.elicitations = elicitations;
    if (auth) conn.reloadSignIn = () => auth.reload();
    if (target.kind === 'stdio' && options.plainCalls !== false)
      conn.plain = attachPlainCalls(client, transport, stdioReadLimit(conn.maxMessageBytes));
    if (target.kind === 'remote' && target.transport !== 'sse' && options.plainCalls !== false) {
      const http = {
        url: target.url,
        headers: target.headers,
        // Read whole up to twice the result bound, so checkSize names the size as on the SDK path.
        readLimit: 2 * conn.maxMessageBytes + 1024 * 1024,
        ...(auth ? { bearer: bearerOf(serverId, target.url, auth) } : {}),
      };
      conn.plainHttp = (c, t) => attachPlainHttpCalls(c, t, http);
      conn.plain = conn.plainHttp(client, transport);
    }
    if (target.kind === 'remote') {
      // HTTP sessions can expire server-side (HTTP 404): open a fresh one with the known era.
      conn.redial = () =>
        UpstreamConnection.dial(
          serverId,
          target,
          options,
          stderr,
          { version: conn.info.protocolEra, discover: conn.info.discoverResult },
          auth,
          elicitations,
        );
    }
    return conn;
  }

  /** A new client and transport, connected: used at open and to replace a lost HTTP session. */
  private static async dial(
    serverId: string,
    target: UpstreamTarget,
    options: ConnectOptions,
    stderr: StderrTail,
    known: KnownEra | null,
    auth?: CarteOAuthProvider,
    elicitations?: CallElicitations,
  ): Promise<{ client: Client; transport: Transport }> {
    const onChanged = options.onToolsChanged;
    const client = new Client(CLIENT_INFO, {
      versionNegotiation: { mode: 'auto', probe: { timeoutMs: Math.min(5000, options.timeoutMs) } },
      ...(elicitations ? { capabilities: FORM_ELICITATION } : {}),
      ...(onChanged
        ? { listChanged: { tools: { autoRefresh: false, debounceMs: 50, onChanged: () => onChanged() } } }
        : {}),
    });
    elicitations?.install(client);
    const notify = options.onNotification;
    if (notify) {
      client.setNotificationHandler('notifications/message', (n) => notify(n.method, n.params));
      client.setNotificationHandler('notifications/resources/updated', (n) => notify(n.method, n.params));
    }
    const transport = await connectWithFallback(
      client,
      serverId,
      target,
      stderr,
      options,
      priorFrom(known),
      auth,
    );
    return { client, transport };
  }

  /** Close and error handlers for the current client; a replaced client's events are ignored. */
  private wire(client: Client, options: ConnectOptions): void {
    client.onclose = () => {
      // The sandbox's verdict (a limit hit) is read as its groups are removed, before any call is explained.
      launchOf(this.transport)?.release();
      if (client !== this.client) return;
      const expected = this.closed;
      this.closed = true;
      options.onClose?.(expected, launchOf(this.transport)?.verdict() ?? null);
    };
    client.onerror = (err) => {
      if (client !== this.client) return;
      this.transportError = err.message;
      options.logger.debug(`[${this.serverId}] transport: ${err.message}`);
    };
    this.options = options;
  }

  /** Replaces a lost HTTP session once, however many requests noticed it at the same time. */
  private async recover(): Promise<void> {
    if (!this.redial || !this.options)
      throw new CarteError('internal', 'internal error (a bug): no way to reopen the session');
    this.recovering ??= (async () => {
      const old = this.client;
      const { client, transport } = await this.redial!();
      this.client = client;
      this.transport = transport;
      this.plain?.close();
      this.plain = this.plainHttp?.(client, transport);
      this.wire(client, this.options!);
      this.extras.reset();
      this.options!.logger.info(`[${this.serverId}] the HTTP session expired; opened a new one`);
      await old.close().catch(() => undefined);
      this.options!.onReopen?.();
    })().finally(() => {
      this.recovering = undefined;
    });
    await this.recovering;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** tools/call requests sent without the SDK's request funnel (plain-calls.ts) on this connection. */
  get plainCallsSent(): number {
    return this.plain?.sent ?? 0;
  }

  /** Whether the upstream's lines are parsed once (line-reader.ts) rather than by the SDK's reader. */
  get readsLinesOnce(): boolean {
    return this.plain?.readsLines ?? false;
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
    const done = this.elicitations?.track(options.elicit, options.signal);
    const result = await this.run(
      `tools/call "${name}"`,
      options.timeoutMs,
      () => {
        if (this.plain) return this.plain.call(params, options);
        const request = { method: 'tools/call' as const, params };
        const opts = {
          timeout: options.timeoutMs,
          resetTimeoutOnProgress: true,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.onProgress ? { onprogress: options.onProgress } : {}),
        };
        const schema = this.toolResultSchema();
        return schema
          ? (this.client.request(request, schema, opts) as Promise<Record<string, unknown>>)
          : this.client.request(request, opts);
      },
      options.signal,
      options.idempotent ?? false,
    ).finally(done);
    // HTTP results are not bounded by a read buffer: measure them.
    if (this.pid === null) checkSize(this.serverId, `the result of "${name}"`, result, this.maxMessageBytes);
    return withoutServerInfo(result);
  }

  /** Built once per client: a redialled HTTP session gets its own (its era may differ). */
  private toolResultSchema(): StandardSchemaV1 | undefined {
    if (this.callSchema?.client !== this.client)
      this.callSchema = { client: this.client, schema: resultSchema(this.client, 'tools/call') };
    return this.callSchema.schema;
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
    return withoutServerInfo(result);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.plain?.close();
    await this.client.close().catch(() => undefined);
    launchOf(this.transport)?.release();
  }

  private async run<T>(
    what: string,
    timeoutMs: number,
    fn: () => Promise<T>,
    signal?: AbortSignal,
    idempotent = true,
  ): Promise<T> {
    if (this.closed)
      throw new CarteError('upstream_unavailable', `server "${this.serverId}" is not connected`);
    try {
      return await fn();
    } catch (err) {
      if (!this.redial || !sessionLost(err) || signal?.aborted)
        throw this.explain(err, what, timeoutMs, signal);
      await this.recover();
      // Only a request that is safe to repeat is sent again (MCP: a lost session is an HTTP 404).
      if (!idempotent) {
        throw new CarteError(
          'upstream_unavailable',
          `server "${this.serverId}" lost its HTTP session during ${what}; a new session is open, but the call was not repeated because the tool is not marked idempotent or read-only`,
          { cause: err },
        );
      }
      try {
        return await fn();
      } catch (again) {
        throw this.explain(again, what, timeoutMs, signal);
      }
    }
  }

  /** The gateway's error for a failed request, with the upstream's stderr tail when there is one. */
  private explain(err: unknown, what: string, timeoutMs: number, signal?: AbortSignal): CarteError {
    const { serverId, transportError, maxMessageBytes, stderr } = this;
    const aborted = signal?.aborted === true;
    // Which sandbox limit stopped the server, once it has stopped (the groups are read as they go).
    const limitHit = () => launchOf(this.transport)?.verdict() ?? null;
    const context = { serverId, what, timeoutMs, aborted, transportError, maxMessageBytes, limitHit, stderr };
    return explainFailure(err, context);
  }

  /** Whether this connection's server runs in a sandbox. */
  get sandboxed(): boolean {
    return launchOf(this.transport) !== undefined;
  }
}
