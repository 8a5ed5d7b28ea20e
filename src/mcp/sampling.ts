// The downstream client's own model (MCP sampling) as the gateway's `Complete`, for search.rerank.
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { CarteError } from '../errors.js';
import type { Complete } from '../gateway/index.js';

type Sampled = Awaited<ReturnType<ServerContext['mcpReq']['requestSampling']>>;

/** The text blocks of a sampling result, joined; other content (images, tool use) is not an answer. */
function textOf(result: Sampled): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  const texts = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  if (texts.length === 0) throw new CarteError('upstream_error', "the client's model answered without text");
  return texts.join('\n');
}

/**
 * A `Complete` that sends `sampling/createMessage` to the client of this request, or undefined
 * when the client did not declare `sampling` (the search then keeps its local order, silently).
 * 2025-era connections get a push-style request under the search's deadline (cancelled when it
 * passes). The 2026-07-28 era has no server-to-client requests (only input_required round trips,
 * which search_tools does not use yet): there it rejects, and the search says why in its metadata.
 */
export function clientSampler(server: Server, ctx: ServerContext): Complete | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const version = envelope?.[PROTOCOL_VERSION_META_KEY];
  const modern =
    version === undefined ? undefined : typeof version === 'string' ? version : JSON.stringify(version);
  const capabilities = (
    modern === undefined ? server.getClientCapabilities() : envelope?.[CLIENT_CAPABILITIES_META_KEY]
  ) as { sampling?: unknown } | undefined;
  if (capabilities?.sampling === undefined) return undefined;
  if (modern !== undefined) {
    const message = `the client's model cannot be asked on protocol ${modern}: sampling there needs an input_required round trip, which search_tools does not make`;
    return () => Promise.reject(new CarteError('upstream_error', message));
  }
  return async (request, signal) => {
    const result = await ctx.mcpReq.requestSampling(
      {
        messages: [{ role: 'user', content: { type: 'text', text: request.prompt } }],
        systemPrompt: request.systemPrompt,
        maxTokens: request.maxTokens,
        temperature: 0,
        includeContext: 'none',
        // An interactive search waits for the answer: prefer a fast model.
        modelPreferences: { speedPriority: 0.8, intelligencePriority: 0.5, costPriority: 0.5 },
      },
      { signal },
    );
    return textOf(result);
  };
}
