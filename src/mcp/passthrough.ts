import { ProtocolError, type Server } from '@modelcontextprotocol/server';
import { ERROR_CODES, toCarteError } from '../errors.js';
import type { CallerContext, DownstreamEvents, Gateway, RequestLog } from '../gateway/index.js';
import { requestLog, type LogContext } from './request-log.js';

/**
 * The upstreams' resources, templates, prompts and completions, with server-prefixed names and
 * URIs; errors are JSON-RPC errors. With `session` (a 2025-era connection, which has one), also
 * log messages at the session's level and resource subscriptions; returns what the session
 * holds, to close with it.
 */
export function registerPassthrough(
  server: Server,
  gateway: Gateway,
  caller: CallerContext,
  session?: 'session',
): DownstreamEvents | undefined {
  const pass = gateway.passthrough;
  server.setRequestHandler('resources/list', () =>
    guard(async () => ({ resources: (await pass.listResources(caller)) as never })),
  );
  server.setRequestHandler('resources/templates/list', () =>
    guard(async () => ({ resourceTemplates: (await pass.listResourceTemplates(caller)) as never })),
  );
  server.setRequestHandler('resources/read', (request, ctx) =>
    guard(async () => (await pass.readResource(caller, request.params.uri, callOn(ctx))) as never),
  );
  server.setRequestHandler('prompts/list', () =>
    guard(async () => ({ prompts: (await pass.listPrompts(caller)) as never })),
  );
  server.setRequestHandler('prompts/get', (request, ctx) =>
    guard(
      async () =>
        (await pass.getPrompt(
          caller,
          request.params.name,
          request.params.arguments ?? {},
          callOn(ctx),
        )) as never,
    ),
  );
  server.setRequestHandler('completion/complete', (request, ctx) =>
    guard(async () => (await pass.complete(caller, request.params, callOn(ctx))) as never),
  );
  return session ? registerEvents(server, gateway, caller) : undefined;
}

/** `logging/setLevel` and resource subscriptions of one session, and what the upstreams send it. */
function registerEvents(server: Server, gateway: Gateway, caller: CallerContext): DownstreamEvents {
  const events = gateway.passthrough.openEvents(caller, {
    log: (params) =>
      void server.notification({ method: 'notifications/message', params }).catch(() => undefined),
    updated: (uri) => void server.sendResourceUpdated({ uri }).catch(() => undefined),
  });
  // Replaces the SDK's own handler: the level is the session's, and filters what the upstreams send.
  server.setRequestHandler('logging/setLevel', (request) =>
    guard(() => {
      events.setLevel(request.params.level);
      return Promise.resolve({});
    }),
  );
  server.setRequestHandler('resources/subscribe', (request) =>
    guard(async () => {
      await events.subscribe(request.params.uri);
      return {};
    }),
  );
  server.setRequestHandler('resources/unsubscribe', (request) =>
    guard(async () => {
      await events.unsubscribe(request.params.uri);
      return {};
    }),
  );
  return events;
}

/** The request's signal and, when it asked for log messages (2026 era), its own log (request-log.ts). */
function callOn(ctx: LogContext): { signal: AbortSignal; log?: RequestLog } {
  const log = requestLog(ctx);
  return { signal: ctx.mcpReq.signal, ...(log ? { log } : {}) };
}

async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = toCarteError(err);
    throw new ProtocolError(ERROR_CODES[e.code].jsonrpc, e.message);
  }
}
