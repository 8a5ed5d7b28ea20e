// An LLM reranker over any OpenAI-compatible `POST /v1/chat/completions` (OpenAI, Ollama, vLLM, LiteLLM...).
import { createLlmReranker, type Complete } from './llm-rerank.js';
import type { Reranker } from './remote-reranker.js';
import { badResponse, hostOf, isRecord, postJson, type FetchLike } from './remote-http.js';

/** Options of createOpenAiChatReranker; `baseUrl` and `model` are required. */
export interface OpenAiChatRerankerOptions {
  /** Server root, e.g. `http://127.0.0.1:11434` (Ollama); a trailing `/v1` is accepted and not doubled. */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  /** Per request; the search's deadline (withFallback) also bounds it. */
  timeoutMs: number;
  fetch?: FetchLike;
}

/** The URL the reranker posts to: `{baseUrl}/v1/chat/completions`. */
export function chatCompletionsUrl(baseUrl: string): string {
  const root = baseUrl.replace(/\/+$/, '');
  return `${root.endsWith('/v1') ? root : `${root}/v1`}/chat/completions`;
}

/** The text of `choices[0].message.content`; anything else breaks the protocol. */
export function parseChatAnswer(provider: string, json: unknown): string {
  const choices = isRecord(json) ? json.choices : undefined;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message = isRecord(first) ? first.message : undefined;
  const content = isRecord(message) ? message.content : undefined;
  if (typeof content !== 'string')
    throw badResponse(provider, 'without a "choices[0].message.content" string');
  return content;
}

/** A Reranker that asks a chat model for an order; its id is `chat:<host>/<model>`. */
export function createOpenAiChatReranker(options: OpenAiChatRerankerOptions): Reranker {
  const id = `chat:${hostOf(options.baseUrl)}/${options.model}`;
  const url = chatCompletionsUrl(options.baseUrl);
  const post = {
    provider: id,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch ?? fetch,
  };
  const complete: Complete = async (request, signal) => {
    const body = {
      model: options.model,
      messages: [
        { role: 'system', content: request.systemPrompt },
        { role: 'user', content: request.prompt },
      ],
      // Greedy decoding: the same request ranks the same way twice.
      temperature: 0,
      max_tokens: request.maxTokens,
    };
    return parseChatAnswer(id, await postJson(url, body, { ...post, signal }));
  };
  return createLlmReranker(id, complete);
}
