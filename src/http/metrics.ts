// GET /metrics (docs/http.md, "Metrics"): Prometheus text from one prom-client Registry per app
// (never the global default, so two apps in one process do not clash). Counters and histograms
// are fed by the gateway's audit events; gauges are read from the gateway when scraped. Labels
// stay bounded: a configured server id (else "unknown"), a meta-tool, an outcome code, a state.
import { Hono } from 'hono';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import {
  INTERRUPTED,
  requireScope,
  SERVER_STATES,
  type AuditObservation,
  type CallerContext,
  type Gateway,
  type RateLimiter,
  type RateRefusal,
  type Store,
} from '../gateway/index.js';
import { callerOf } from './api/context.js';
import type { HttpDeps, HttpEnv } from './shared/types.js';

/** Latency buckets in seconds: 1 ms (an in-memory search) to 30 s (a slow upstream call). */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const META_TOOL = {
  search: 'search_tools',
  browse: 'browse_tools',
  describe: 'describe_tool',
  call: 'call_tool',
  code: 'run_code',
  admin: 'admin',
} as const;

/** The metrics of one app. */
export class CarteMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter;
  private readonly requestSeconds: Histogram;
  private readonly searchSeconds: Histogram;
  private readonly calls: Counter;
  private readonly callSeconds: Histogram;
  private readonly errors: Counter;
  private readonly tools: Gauge;
  private readonly state: Gauge;
  private readonly inFlight: Gauge;
  private readonly tokens: Gauge;
  private readonly interrupted: Gauge;
  private readonly limited: Counter;

  constructor(
    private readonly gateway: Gateway,
    private readonly store: Store,
  ) {
    const registers = [this.registry];
    const m = <T>(make: (r: { registers: Registry[] }) => T) => make({ registers });
    this.requests = m(
      (r) =>
        new Counter({
          ...r,
          name: 'carte_meta_tool_requests_total',
          help: 'Meta-tool requests (search_tools, browse_tools, describe_tool, call_tool) by outcome',
          labelNames: ['meta_tool', 'outcome'],
        }),
    );
    this.requestSeconds = m(
      (r) =>
        new Histogram({
          ...r,
          name: 'carte_meta_tool_duration_seconds',
          help: 'Meta-tool latency, including the upstream for call_tool',
          labelNames: ['meta_tool'],
          buckets: LATENCY_BUCKETS,
        }),
    );
    this.searchSeconds = m(
      (r) =>
        new Histogram({
          ...r,
          name: 'carte_search_duration_seconds',
          help: 'search_tools latency (lexical, hybrid or remote)',
          buckets: LATENCY_BUCKETS,
        }),
    );
    this.calls = m(
      (r) =>
        new Counter({
          ...r,
          name: 'carte_tool_calls_total',
          help: 'Tool calls by upstream server and outcome (ok, tool_error or a Carte error code)',
          labelNames: ['server', 'outcome'],
        }),
    );
    this.callSeconds = m(
      (r) =>
        new Histogram({
          ...r,
          name: 'carte_tool_call_duration_seconds',
          help: 'Tool call latency by upstream server',
          labelNames: ['server'],
          buckets: LATENCY_BUCKETS,
        }),
    );
    this.errors = m(
      (r) =>
        new Counter({
          ...r,
          name: 'carte_errors_total',
          help: "Carte's own errors (not a tool's isError) by meta-tool, server and code",
          labelNames: ['meta_tool', 'server', 'code'],
        }),
    );
    this.tools = m(
      (r) =>
        new Gauge({
          ...r,
          name: 'carte_catalog_tools',
          help: 'Tools in the catalog by server',
          labelNames: ['server'],
        }),
    );
    this.state = m(
      (r) =>
        new Gauge({
          ...r,
          name: 'carte_upstream_state',
          help: "Each server's state: 1 for the current one",
          labelNames: ['server', 'state'],
        }),
    );
    this.inFlight = m(
      (r) =>
        new Gauge({
          ...r,
          name: 'carte_upstream_calls',
          help: 'Calls running and queued now by server',
          labelNames: ['server', 'phase'],
        }),
    );
    this.tokens = m(
      (r) =>
        new Gauge({
          ...r,
          name: 'carte_session_tokens',
          help: 'Token sums over the kept sessions: sent, full listing, saved (= listing - sent)',
          labelNames: ['kind'],
        }),
    );
    this.limited = m(
      (r) =>
        new Counter({
          ...r,
          name: 'carte_rate_limited_total',
          help: "Requests answered 429 by a rate limit: token, project (its default), project_total (a project's callers together), auth_failures (an address locked out)",
          labelNames: ['limit'],
        }),
    );
    this.interrupted = m(
      (r) =>
        new Gauge({
          ...r,
          name: 'carte_interrupted_calls',
          help: 'Kept audit rows of calls whose process died before they finished, by server',
          labelNames: ['server'],
        }),
    );
  }

  /** Counts one audited event (the gateway calls this as each ends). */
  observe(e: AuditObservation): void {
    if (e.kind === 'auth') return; // an upstream sign-in or sign-out is not a request
    const tool = META_TOOL[e.kind];
    const seconds = e.durationMs / 1000;
    this.requests.inc({ meta_tool: tool, outcome: e.outcome });
    this.requestSeconds.observe({ meta_tool: tool }, seconds);
    if (e.kind === 'search') this.searchSeconds.observe(seconds);
    const server = e.kind === 'call' || e.kind === 'describe' ? this.serverLabel(e.server ?? e.key) : '';
    if (e.kind === 'call') {
      this.calls.inc({ server, outcome: e.outcome });
      this.callSeconds.observe({ server }, seconds);
    }
    if (e.outcome !== 'ok' && e.outcome !== 'tool_error')
      this.errors.inc({ meta_tool: tool, server, code: e.outcome });
  }

  /** Counts one request a rate limit refused. */
  refused(r: RateRefusal): void {
    this.limited.inc({ limit: r.kind });
  }

  /** The text exposition, with the gauges read now (the caller needs the admin scope). */
  async scrape(caller: CallerContext): Promise<string> {
    requireScope(caller, 'admin', 'reading metrics');
    this.tools.reset();
    this.state.reset();
    this.inFlight.reset();
    for (const s of this.gateway.listServers(caller)) {
      this.tools.set({ server: s.id }, s.toolCount);
      for (const state of SERVER_STATES) this.state.set({ server: s.id, state }, state === s.state ? 1 : 0);
      this.inFlight.set({ server: s.id, phase: 'active' }, s.activeCalls);
      this.inFlight.set({ server: s.id, phase: 'queued' }, s.queuedCalls);
    }
    const t = await this.store.activity.sessionStats({});
    this.tokens.set({ kind: 'sent' }, t.tokensSent);
    this.tokens.set({ kind: 'listing' }, t.tokensListing);
    this.tokens.set({ kind: 'saved' }, t.tokensListing - t.tokensSent);
    await this.countInterrupted();
    return this.registry.metrics();
  }

  /** Interrupted calls of every replica (the shared store's rows), found by the starts (store/leases). */
  private async countInterrupted(): Promise<void> {
    this.interrupted.reset();
    const rows = await this.store.activity.audit({ kinds: ['call'], outcome: INTERRUPTED });
    const counts = new Map<string, number>();
    for (const r of rows) {
      const server = this.serverLabel(r.server ?? undefined);
      counts.set(server, (counts.get(server) ?? 0) + 1);
    }
    for (const [server, n] of counts) this.interrupted.set({ server }, n);
  }

  /** A configured server's id; anything an agent typed that names none is "unknown" (bounded labels). */
  private serverLabel(keyOrServer: string | undefined): string {
    const id = (keyOrServer ?? '').split('/')[0] ?? '';
    try {
      return id === '' ? 'unknown' : this.gateway.server(id).id;
    } catch {
      return 'unknown';
    }
  }
}

/** Serves GET /metrics (admin scope: the numbers span every project's servers). */
export function metricsRoutes(deps: HttpDeps, limiter?: RateLimiter): Hono<HttpEnv> {
  const metrics = new CarteMetrics(deps.gateway, deps.store);
  deps.gateway.onAuditEvent((e) => metrics.observe(e));
  limiter?.onRefusal((r) => metrics.refused(r));
  return new Hono<HttpEnv>().get('/metrics', async (c) => {
    const body = await metrics.scrape(callerOf(c));
    return c.body(body, 200, { 'content-type': metrics.registry.contentType });
  });
}
