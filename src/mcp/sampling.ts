// The downstream client's own model (MCP sampling) as the gateway's `Complete`, for search.rerank.
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Complete } from '../gateway/index.js';
import { samplingParams, textOf, type ClientModel } from './sampling-request.js';
import { modernRound } from './sampling-rounds.js';

export type { ClientModel } from './sampling-request.js';

const NONE: ClientModel = { pending: () => undefined };

/**
 * The client of this request as the search's model, when it declared `sampling` (otherwise the
 * search keeps its local order, silently). A 2025-era connection gets a push-style
 * `sampling/createMessage` under the search's deadline (cancelled when it passes). The
 * 2026-07-28 era has no server-to-client requests: there the first round returns an
 * `input_required` result and the client's retry carries the answer (sampling-rounds.ts).
 */
export function clientModel(server: Server, ctx: ServerContext, query: unknown): ClientModel {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const modern = envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined;
  const capabilities = (
    modern ? envelope?.[CLIENT_CAPABILITIES_META_KEY] : server.getClientCapabilities()
  ) as { sampling?: unknown } | undefined;
  if (capabilities?.sampling === undefined) return NONE;
  if (modern) return modernRound(ctx, query);
  const sample: Complete = async (request, signal) =>
    textOf(await ctx.mcpReq.requestSampling(samplingParams(request), { signal }));
  return { sample, pending: () => undefined };
}
