import { Server, UrlElicitationRequiredError, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import { CarteError, toCarteError } from '../errors.js';
import {
  LOCAL_CALLER,
  requestServer,
  signInThroughClient,
  type ApprovalSite,
  type UrlAsker,
  type CallerContext,
  type Gateway,
} from '../gateway/index.js';
import { Args } from './args.js';
import { META_TOOLS, metaTools, REQUEST_SERVER, RUN_CODE, withRunCode } from './meta-tools.js';
import { SessionMeter } from './session-meter.js';
import { DirectMode, type ExposureOptions } from './direct-mode.js';
import { clientModel, type ClientModel } from './sampling.js';
import { errorResult, SERVER_INFO, type Result } from './tool-call.js';
import { registerPassthrough } from './passthrough.js';
import { requestLog } from './request-log.js';
import { signaturesResult } from './signatures.js';

type Ctx = {
  mcpReq: {
    _meta?: Record<string, unknown>;
    envelope?: Record<string, unknown>;
    signal: AbortSignal;
    elicitInput: (
      params:
        | { message: string; requestedSchema: { type: 'object'; properties: Record<string, never> } }
        | { mode: 'url'; url: string; elicitationId: string; message: string },
    ) => Promise<{ action: string }>;
    notify: (n: {
      method: 'notifications/progress' | 'notifications/message';
      params: Record<string, unknown>;
    }) => Promise<void>;
  };
};

/** Asks the person behind the client to confirm (MCP elicitation); true only on accept. */
type Ask = (message: string) => Promise<boolean>;

const INSTRUCTIONS =
  'Carte is a catalog of many MCP servers. Use search_tools (or browse_tools) to find a tool, describe_tool to read its schema, then call_tool with its key.';

/**
 * tools/call params as the handler takes them. The SDK's Server has already checked the whole
 * request against the spec's schema before any handler runs; its 2-argument form would parse it
 * again, the largest SDK cost of a proxied call after the pipe writes (docs/benchmarks.md).
 */
const CALL_PARAMS: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'carte',
    validate: (value) => ({ value: value as Record<string, unknown> }),
  },
};

/** Builds the MCP server face: four meta-tools over the gateway, or in direct mode the hot tools and search. */
export function createMcpServer(
  gateway: Gateway,
  caller: CallerContext = LOCAL_CALLER,
  options: {
    exposure?: ExposureOptions;
    /**
     * One request, not a session (the modern era over HTTP builds a server per request): no
     * catalog-change subscription and no session record, which would cost a row and a log line
     * per request and count each request as a session in the tokens-saved statistics.
     */
    perRequest?: boolean;
    /** `registration.agentRequests`: where `request_server` proposals go; absent, the tool is not listed. */
    agentRequests?: ApprovalSite;
    /** The era this instance serves; a 2026-era one has no session for log messages or subscriptions. */
    era?: 'legacy' | 'modern';
  } = {},
): Server {
  const server = new Server(
    { ...SERVER_INFO },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true },
        prompts: {},
        completions: {},
        logging: {},
      },
      instructions: INSTRUCTIONS,
    },
  );
  const meter = new SessionMeter();
  const direct =
    options.exposure?.mode === 'direct'
      ? new DirectMode(gateway, caller, options.exposure.maxTools)
      : undefined;
  const listChanged = () => void server.sendToolListChanged().catch(() => undefined);
  // The search and browse descriptions carry the catalog's digest: when it changes, say so.
  let digest = gateway.catalogDigest(caller);
  const stopWatching = options.perRequest
    ? () => undefined
    : gateway.onCatalogChanged(() => {
        const next = gateway.catalogDigest(caller);
        const renamed = direct?.refresh() ?? false;
        if (next.long === digest.long && next.short === digest.short && !renamed) return;
        digest = next;
        listChanged();
      });
  const session = options.perRequest || options.era === 'modern' ? undefined : 'session';
  const events = registerPassthrough(server, gateway, caller, session);
  const onclose = server.onclose;
  server.onclose = () => {
    stopWatching();
    events?.close();
    if (!options.perRequest) gateway.endSession(caller, meter.report());
    onclose?.();
  };
  const code = options.exposure?.code?.enabled === true && !direct ? options.exposure.code : undefined;
  server.setRequestHandler('tools/list', async () => {
    const tools = metaTools(digest);
    const meta = [
      ...(code ? withRunCode(tools) : tools),
      ...(options.agentRequests ? [{ ...REQUEST_SERVER }] : []),
    ];
    const answer = { tools: direct ? [meta[0]!, ...(await direct.tools()), ...meta.slice(4)] : meta };
    meter.sent(JSON.stringify(answer));
    return answer as never;
  });
  server.setRequestHandler('tools/call', { params: CALL_PARAMS }, async (params, ctx) => {
    const { name, arguments: raw } = params as { name: string; arguments?: Record<string, unknown> };
    const args = new Args(name, raw ?? {});
    const run = async (): Promise<Result> => {
      // A project may require a person to confirm some calls: ask through the client when it can.
      const elicit = ctx.mcpReq.elicitInput;
      const ask: Ask | undefined =
        server.getClientCapabilities()?.elicitation !== undefined
          ? async (message) =>
              (await elicit({ message, requestedSchema: { type: 'object', properties: {} } })).action ===
              'accept'
          : undefined;
      const key = direct?.keyOf(name);
      if (direct && key !== undefined) {
        direct.touch([key]);
        return await relayCall(gateway, caller, key, raw ?? {}, ctx, ask);
      }
      if (name === REQUEST_SERVER.name && options.agentRequests)
        return jsonResult(await requestServer(caller, options.agentRequests, raw ?? {}));
      if (name === RUN_CODE.name && code) {
        const req = { signal: ctx.mcpReq.signal, limits: code, ...(ask ? { confirm: ask } : {}) };
        const answer = await gateway.runCode(caller, args.string('code', true), req);
        meter.sent(textOf(answer));
        return answer;
      }
      const sampler = (query: unknown) => clientModel(server, ctx, query);
      const result =
        (await signaturesResult(gateway, caller, name, args)) ??
        (await dispatch(gateway, caller, name, args, ctx, direct, listChanged, ask, sampler));
      if (name !== 'call_tool') meter.sent(textOf(result));
      return result;
    };
    try {
      return await run();
    } catch (err) {
      // A server that needs a sign-in: a client that opens URLs (SEP-1036) signs in, then the call runs again.
      const asker = urlAsker(server, ctx);
      const e = toCarteError(err);
      // An upstream's -32042 (pages the user must open): relayed as such to a client that opens URLs.
      if (e.code === 'url_elicitation_required' && asker)
        throw new UrlElicitationRequiredError((e.details?.elicitations ?? []) as never, e.message);
      const id = e.code === 'needs_sign_in' ? e.details?.server : undefined;
      if (!asker || typeof id !== 'string') return errorResult(e);
      try {
        const scope = typeof e.details?.scope === 'string' ? { scope: e.details.scope } : {};
        await signInThroughClient(gateway.signInSite, caller, id, asker, scope);
        return await run();
      } catch (again) {
        return errorResult(toCarteError(again));
      }
    }
  });
  return server;
}

/** The client as an elicited sign-in asks it to open a page, when it declared `elicitation.url`. */
function urlAsker(server: Server, ctx: Ctx): UrlAsker | undefined {
  const elicitation = server.getClientCapabilities()?.elicitation as { url?: unknown } | undefined;
  if (elicitation?.url === undefined) return undefined;
  return {
    ask: async ({ url, elicitationId, message }) =>
      (await ctx.mcpReq.elicitInput({ mode: 'url', url, elicitationId, message })).action,
    complete: (elicitationId) => server.createElicitationCompletionNotifier(elicitationId)(),
  };
}

function textOf(result: Result): string {
  const content = result.content as { text?: string }[] | undefined;
  return content?.[0]?.text ?? '';
}

async function dispatch(
  gateway: Gateway,
  caller: CallerContext,
  name: string,
  args: Args,
  ctx: Ctx,
  direct: DirectMode | undefined,
  listChanged: () => void,
  ask: Ask | undefined,
  sampler: (query: unknown) => ClientModel | undefined = () => undefined,
): Promise<Result> {
  switch (name) {
    case 'search_tools': {
      const query = args.query();
      const model = sampler(query);
      const { results, meta, omitted } = await gateway.searchToolsWithMeta(caller, query, {
        ...optional('limit', args.limit(50)),
        ...optional('server', args.string('server')),
        ...optional('maxTokens', args.maxTokens()),
        // search.rerank "sampling" asks the client's own model, when it declared sampling.
        ...optional('sample', model?.sample),
        signal: ctx.mcpReq.signal,
      });
      // 2026-07-28 era, first round: ask the client's model (input_required); the retry answers.
      const question = model?.pending();
      if (question) return question;
      // Direct mode: what search finds becomes callable by name, and the client is told.
      const shown = direct ? results.map((r) => ({ ...r, tool: direct.nameOf(r.key) })) : results;
      if (direct?.touch(results.map((r) => r.key))) listChanged();
      // How it was ranked (remote provider, fallback and why) goes in _meta, outside the agent's text.
      return {
        ...jsonResult({ results: shown, ...(omitted ? { omitted } : {}) }),
        _meta: { 'carte/search': meta },
      };
    }
    case 'browse_tools':
      return jsonResult(
        await gateway.browseTools(caller, {
          ...optional('category', args.string('category')),
          ...optional('server', args.string('server')),
          ...optional('cursor', args.string('cursor')),
          ...optional('maxTokens', args.maxTokens()),
        }),
      );
    case 'describe_tool':
      return jsonResult(await gateway.describeToolWithin(caller, args.string('key', true), args.maxTokens()));
    case 'call_tool':
      return relayCall(gateway, caller, args.string('key', true), args.value('arguments'), ctx, ask);
    default:
      throw new CarteError(
        'bad_input',
        `unknown meta-tool "${name}"; the tools are ${META_TOOLS.map((t) => t.name).join(', ')}`,
      );
  }
}

/** Calls a tool, relaying the upstream's progress with the token the client sent. */
async function relayCall(
  gateway: Gateway,
  caller: CallerContext,
  key: string,
  argv: unknown,
  ctx: Ctx,
  ask: Ask | undefined,
): Promise<Result> {
  const meta = ctx.mcpReq._meta ?? {};
  const { progressToken, ...rest } = meta;
  let open = true;
  const relay =
    progressToken === undefined
      ? undefined
      : (p: { progress: number; total?: number; message?: string }) => {
          // The SDK gave the upstream its own token; answer the downstream with the one it sent.
          if (!open || ctx.mcpReq.signal.aborted) return;
          ctx.mcpReq
            .notify({ method: 'notifications/progress', params: { progressToken, ...p } })
            .catch(() => undefined);
        };
  const log = requestLog(ctx);
  try {
    return await gateway.callTool(caller, key, argv, {
      signal: ctx.mcpReq.signal,
      ...(log ? { log } : {}),
      ...(ask ? { confirm: ask } : {}),
      ...optional('onProgress', relay),
      ...(Object.keys(rest).length ? { meta: rest } : {}),
    });
  } finally {
    open = false;
  }
}

function jsonResult(value: unknown): Result {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
