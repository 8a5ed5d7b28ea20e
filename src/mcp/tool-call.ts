// What a `call_tool` answers, shared by the MCP server's tools/call handler and the HTTP face's
// plain modern-era calls (src/http/plain-call.ts), so the two can never answer differently.
import { ERROR_CODES, toCarteError, type CarteError } from '../errors.js';
import type { CallerContext, Gateway } from '../gateway/index.js';
import { Args } from './args.js';

export type Result = Record<string, unknown>;

/** Who answers: the name and version every face reports. */
export const SERVER_INFO = Object.freeze({ name: 'carte', version: '0.1.0' });

/**
 * `call_tool` with nothing to relay: no progress token, no client `_meta`, and no way to ask the
 * person to confirm (a project's `confirm` classes are then refused with how to allow them). This is
 * what the tools/call handler does in that case, step for step.
 */
export async function plainCallTool(
  gateway: Gateway,
  caller: CallerContext,
  raw: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Result> {
  try {
    const args = new Args('call_tool', raw);
    return await gateway.callTool(
      caller,
      args.string('key', true),
      args.value('arguments'),
      signal ? { signal } : {},
    );
  } catch (err) {
    return errorResult(toCarteError(err));
  }
}

/** Error details an agent may read; anything else (stderr tails, paths) stays with the operator. */
const AGENT_DETAILS = ['suggestions', 'violations', 'upstreamCode', 'upstreamData', 'circuitOpen'];

/** The MCP face's one error mapping: a gateway failure becomes a tool error the agent can read. */
export function errorResult(err: CarteError): Result {
  if (err.code === 'internal') process.stderr.write(`carte: ${err.stack ?? err.message}\n`);
  const details = Object.entries(err.details ?? {}).filter(([k]) => AGENT_DETAILS.includes(k));
  return {
    content: [{ type: 'text', text: err.message }],
    isError: true,
    _meta: {
      'carte/error': {
        code: err.code,
        jsonrpc: ERROR_CODES[err.code].jsonrpc,
        ...(details.length ? { details: Object.fromEntries(details) } : {}),
      },
    },
  };
}
