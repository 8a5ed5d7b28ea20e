// The client's model on the 2026-07-28 era, where a server may not send requests to its client
// (multi round trip, spec basic/patterns/mrtr): the first search_tools round answers
// `input_required` with the rerank prompt as an embedded sampling/createMessage; the client's
// retry carries its model's answer and the requestState below. Nothing is kept in memory between
// the rounds, so any replica can answer the retry: it ranks again and checks the state.
import { createHash } from 'node:crypto';
import { inputRequired, inputResponse, type ServerContext } from '@modelcontextprotocol/server';
import type { Complete, CompletionRequest } from '../gateway/index.js';
import { samplingParams, textOf, type ClientModel } from './sampling-request.js';

/** The `inputRequests` key of the rerank question. */
export const RERANK_INPUT_KEY = 'rerank';

/** Tag and version of the requestState Carte issues; a change of shape bumps it. */
export const RERANK_STATE_KIND = 'carte/rerank@1';

/** Longest requestState read back: 50 keys (search.rerank.topN's maximum) of 128+ characters fit well under it. */
const MAX_STATE_CHARS = 32_768;

/**
 * What the retry must match: a digest of the query (the retry carries the query itself; the
 * digest bounds the state's size) and the candidate keys the model was shown, in prompt order.
 */
interface RerankState {
  kind: typeof RERANK_STATE_KIND;
  query: string;
  keys: string[];
}

function digest(query: unknown): string {
  return createHash('sha256').update(JSON.stringify(query)).digest('base64url');
}

/** The state, or undefined for anything Carte did not issue (it comes back from the client: untrusted). */
function readState(raw: unknown): RerankState | undefined {
  if (typeof raw !== 'string' || raw.length > MAX_STATE_CHARS) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const s = value as Partial<RerankState> | null;
  const keys = s?.keys;
  const valid =
    s?.kind === RERANK_STATE_KIND &&
    typeof s.query === 'string' &&
    Array.isArray(keys) &&
    keys.every((k) => typeof k === 'string');
  return valid ? (s as RerankState) : undefined;
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/**
 * Second round: the model's answer from the retry, when the retry is the search the model saw.
 * Each refusal is a fallback with its reason (`remote provider "sampling" failed: ...`). The set
 * of keys is compared, not their order: the model reorders them anyway.
 */
function answerFrom(ctx: ServerContext, query: unknown): Complete {
  const state = readState(ctx.mcpReq.requestState());
  const answer = (request: CompletionRequest): string => {
    if (!state) throw new Error('the client echoed a requestState that Carte did not issue');
    if (state.query !== digest(query))
      throw new Error("the client's retry searches for another query than the one its model ranked");
    if (!sameSet(state.keys, request.keys))
      throw new Error('the tools to rank changed between the two rounds');
    const response = inputResponse(ctx.mcpReq.inputResponses, RERANK_INPUT_KEY);
    if (response.kind === 'sampling') return textOf(response.result);
    if (response.kind === 'missing') throw new Error("the client retried without its model's answer");
    const kind = response.kind === 'elicit' ? 'an elicitation' : 'a roots';
    throw new Error(`the client answered the sampling request with ${kind} result`);
  };
  // The executor turns a refusal (thrown) into a rejection, as any failed answer.
  return (request) => new Promise((resolve) => resolve(answer(request)));
}

/**
 * First round: the search runs as usual with a `Complete` that notes the prompt and keeps the
 * local order (that result is not sent); `pending` then turns the prompt into the
 * `input_required` result. A retry (it carries state or an answer) is never asked again, so a
 * client that cannot answer gets the local order rather than a loop of questions.
 */
export function modernRound(ctx: ServerContext, query: unknown): ClientModel {
  const retried =
    ctx.mcpReq.requestState() !== undefined ||
    ctx.mcpReq.inputResponses?.[RERANK_INPUT_KEY] !== undefined ||
    (ctx.mcpReq.droppedInputResponseKeys ?? []).includes(RERANK_INPUT_KEY);
  if (retried) return { sample: answerFrom(ctx, query), pending: () => undefined };
  let asked: CompletionRequest | undefined;
  const sample: Complete = (request) => {
    asked = request;
    return Promise.resolve(JSON.stringify(request.keys));
  };
  const pending = () => {
    if (!asked) return undefined; // nothing to rerank (one hit, several steps): answer now
    const state: RerankState = { kind: RERANK_STATE_KIND, query: digest(query), keys: [...asked.keys] };
    return inputRequired({
      inputRequests: { [RERANK_INPUT_KEY]: inputRequired.createMessage(samplingParams(asked)) },
      requestState: JSON.stringify(state),
    });
  };
  return { sample, pending };
}
