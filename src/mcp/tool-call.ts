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

/** A `call_tool` request with nothing around it: the id, the arguments, and the `_meta` it carried. */
export interface PlainCallMessage {
  id: string | number;
  arguments: Record<string, unknown>;
  meta: unknown;
}

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

/**
 * A JSON-RPC tools/call of `call_tool` with a string or integer id, object arguments and no other
 * params (no task, no retry's inputResponses or requestState); undefined for anything else.
 */
export function plainCallMessage(body: unknown): PlainCallMessage | undefined {
  if (!isObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  if (!onlyKeys(body, MESSAGE_KEYS)) return undefined;
  const id = body.id;
  if (typeof id !== 'string' && !Number.isInteger(id)) return undefined;
  const params = body.params;
  if (!isObject(params) || params.name !== 'call_tool' || !isObject(params.arguments)) return undefined;
  if (!onlyKeys(params, PARAM_KEYS)) return undefined;
  return { id: id as string | number, arguments: params.arguments, meta: params._meta };
}

/** The request ids a client's notifications/cancelled names in one message or batch. */
export function cancelledIds(body: unknown): (string | number)[] {
  const ids: (string | number)[] = [];
  for (const m of Array.isArray(body) ? body : [body]) {
    if (!isObject(m) || m.method !== 'notifications/cancelled' || !isObject(m.params)) continue;
    const id = m.params.requestId;
    if (typeof id === 'string' || typeof id === 'number') ids.push(id);
  }
  return ids;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function onlyKeys(o: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in o) if (!allowed.has(key)) return false;
  return true;
}

/** Error details an agent may read; anything else (stderr tails, paths) stays with the operator. */
const AGENT_DETAILS = [
  'suggestions',
  'violations',
  'upstreamCode',
  'upstreamData',
  'circuitOpen',
  // An upstream's -32042: the pages the user must open (checked http(s) URLs: url-elicitation.ts).
  'elicitations',
];

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
