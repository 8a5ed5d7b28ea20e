// What both protocol eras share when the client's model reranks a search: the sampling request
// built from the rerank prompt, how its answer is read, and the shape the search_tools handler uses.
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  InputRequiredResult,
} from '@modelcontextprotocol/server';
import type { Complete, CompletionRequest } from '../gateway/index.js';

/** The client's model for one search_tools request. */
export interface ClientModel {
  /** The search's `Complete`; absent when the client did not declare `sampling`. */
  sample?: Complete;
  /**
   * After the search: the `input_required` result that asks the client's model instead of
   * answering (2026-07-28 era, first round), or undefined to answer with the search's result.
   */
  pending(): InputRequiredResult | undefined;
}

/** The sampling request for a rerank prompt, the same on both eras. */
export function samplingParams(request: CompletionRequest): CreateMessageRequestParams {
  return {
    messages: [{ role: 'user', content: { type: 'text', text: request.prompt } }],
    systemPrompt: request.systemPrompt,
    maxTokens: request.maxTokens,
    temperature: 0,
    includeContext: 'none',
    // An interactive search waits for the answer: prefer a fast model.
    modelPreferences: { speedPriority: 0.8, intelligencePriority: 0.5, costPriority: 0.5 },
  };
}

/** The text blocks of a sampling result, joined; other content (images, tool use) is not an answer. */
export function textOf(result: CreateMessageResult | CreateMessageResultWithTools): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  const texts = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  // A plain Error: the fallback reason then names the provider, as for any other failed answer.
  if (texts.length === 0) throw new Error("the client's model answered without text");
  return texts.join('\n');
}
