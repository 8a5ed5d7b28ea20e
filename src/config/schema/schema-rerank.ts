// The LLM reranker's part of the config schema: `search.rerank` (docs/search-providers.md, "LLM rerank").
import { z } from 'zod';

/** Where the LLM reranker's model runs: the MCP client's own model, or an OpenAI-compatible chat API. */
export const LLM_RERANK_PROVIDERS = ['sampling', 'openai-chat'] as const;
export type LlmRerankProvider = (typeof LLM_RERANK_PROVIDERS)[number];

/** Defaults of `search.rerank` (docs/search-providers.md gives the reasons). */
export const LLM_RERANK_DEFAULTS = { topN: 20, timeoutMs: 5000 } as const;

export const LlmRerankSchema = z
  .strictObject({
    provider: z
      .enum(LLM_RERANK_PROVIDERS)
      .describe(
        "sampling: ask the MCP client's own model (sampling/createMessage) when the client declared sampling; openai-chat: post to an OpenAI-compatible /v1/chat/completions. No default: required.",
      ),
    url: z
      .string()
      .min(1)
      .optional()
      .describe(
        'openai-chat only, required there: base URL of the API, e.g. http://127.0.0.1:11434 (Ollama); Carte posts to <url>/v1/chat/completions (a trailing /v1 is not doubled). May use ${env:NAME}.',
      ),
    model: z
      .string()
      .min(1)
      .optional()
      .describe('openai-chat only, required there: the chat model, e.g. gpt-4o-mini or llama3.1:8b.'),
    apiKey: z
      .string()
      .min(1)
      .optional()
      .describe(
        'openai-chat only: sent as "Authorization: Bearer <apiKey>"; write it as ${env:NAME}, never literally. No default: no header.',
      ),
    topN: z
      .int()
      .min(2)
      .max(50)
      .default(LLM_RERANK_DEFAULTS.topN)
      .describe('How many of the best local hits the model reorders; the rest keep their place.'),
    timeoutMs: z
      .int()
      .min(1)
      .max(60_000)
      .default(LLM_RERANK_DEFAULTS.timeoutMs)
      .describe(
        "Deadline of the model's answer, in milliseconds; past it (or on an error or an unreadable answer) the local order is kept.",
      ),
  })
  .describe('Reorder the best hits of the search with a chat model (docs/search-providers.md, "LLM rerank").');

export type LlmRerankConfig = z.output<typeof LlmRerankSchema>;
