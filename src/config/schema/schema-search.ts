// The search part of the config schema: `search` and each project's `search` (docs/search.md).
import { z } from 'zod';
import { LlmRerankSchema } from './schema-rerank.js';

const SECRET =
  'Sent as "Authorization: Bearer <apiKey>"; write it as ${env:NAME}, never literally. No default: no header.';

/** An OpenAI-compatible embeddings endpoint (OpenAI, Ollama, vLLM, LiteLLM...). */
export const RemoteEmbeddingsSchema = z
  .strictObject({
    url: z
      .string()
      .min(1)
      .describe(
        'Base URL of the API, e.g. https://api.openai.com; Carte posts to <url>/v1/embeddings (a trailing /v1 is not doubled). May use ${env:NAME}.',
      ),
    model: z.string().min(1).describe('The embedding model, e.g. text-embedding-3-small.'),
    dimension: z
      .int()
      .min(1)
      .max(65_536)
      .optional()
      .describe(
        'Length of the vectors the model returns; an answer of another length is refused. No default: learned from the first answer.',
      ),
    apiKey: z.string().min(1).optional().describe(SECRET),
  })
  .describe('Embed tools and queries with a remote model, fused with the lexical ranking as hybrid does.');

/** A Cohere / Jina compatible rerank endpoint. */
export const RemoteRerankSchema = z
  .strictObject({
    url: z
      .string()
      .min(1)
      .describe(
        'The full rerank endpoint, e.g. https://api.jina.ai/v1/rerank or https://api.cohere.com/v2/rerank. May use ${env:NAME}.',
      ),
    model: z
      .string()
      .min(1)
      .optional()
      .describe('The rerank model, sent as "model". No default: not sent (Cohere and Jina require it).'),
    apiKey: z.string().min(1).optional().describe(SECRET),
    topN: z
      .int()
      .min(2)
      .max(50)
      .default(20)
      .describe('How many of the best local hits the reranker reorders; the rest keep their place.'),
  })
  .describe('Reorder the best hits of the local ranking with a remote reranker.');

export const RemoteSearchSchema = z
  .strictObject({
    embeddings: RemoteEmbeddingsSchema.optional(),
    rerank: RemoteRerankSchema.optional(),
    timeoutMs: z
      .int()
      .min(1)
      .max(60_000)
      .default(1500)
      .describe(
        'Deadline of each remote step of a search, in milliseconds; past it (or on an error) the local ranking is used.',
      ),
  })
  .describe(
    'Remote providers for search.strategy "remote": set embeddings, rerank or both. Any failure falls back to the local ranking.',
  );

export const SearchSchema = z
  .strictObject({
    strategy: z
      .enum(['lexical', 'hybrid', 'remote'])
      .default('lexical')
      .describe(
        'How search_tools ranks tools: lexical (BM25 over names and descriptions), hybrid (lexical fused with a local embedding model) or remote (the providers under "remote").',
      ),
    remote: RemoteSearchSchema.optional(),
    rerank: LlmRerankSchema.optional(),
  })
  .describe('How tools are found.');
