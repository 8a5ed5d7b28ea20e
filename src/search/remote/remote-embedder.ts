// An Embedder over any OpenAI-compatible `POST /v1/embeddings` endpoint (OpenAI, Ollama, vLLM, LiteLLM...).
import { CarteError } from '../../errors.js';
import { normalize, type Embedder } from '../embed/embedder.js';
import { badResponse, hostOf, isIndex, isRecord, postJson, type FetchLike } from './remote-http.js';

/** Options of createOpenAiEmbedder; `baseUrl` and `model` are required. */
export interface OpenAiEmbedderOptions {
  /** Server root, e.g. `https://api.openai.com`; a trailing `/v1` is accepted and not doubled. */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  /** Expected vector length; a model answering another length is refused. Learned from the first answer when absent. */
  dimension?: number | undefined;
  /** Per request (one batch). */
  timeoutMs?: number;
  /** Texts per request. */
  batchSize?: number;
  fetch?: FetchLike;
}

/** Defaults of createOpenAiEmbedder: 1.5 s per request, 64 texts per request. */
export const OPENAI_EMBEDDER_DEFAULTS = { timeoutMs: 1500, batchSize: 64 } as const;

/** The URL the embedder posts to: `{baseUrl}/v1/embeddings`. */
export function embeddingsUrl(baseUrl: string): string {
  const root = baseUrl.replace(/\/+$/, '');
  return `${root.endsWith('/v1') ? root : `${root}/v1`}/embeddings`;
}

/** Checks `{data: [{index, embedding}]}` for `count` inputs and returns the vectors in input order. */
export function parseEmbeddings(provider: string, json: unknown, count: number): number[][] {
  const data = isRecord(json) ? json.data : undefined;
  if (!Array.isArray(data)) throw badResponse(provider, 'without a "data" array');
  if (data.length !== count)
    throw badResponse(provider, `data of length ${data.length}, not ${count} (one per input)`);
  const out: number[][] = [];
  data.forEach((item: unknown, i) => {
    const index = isRecord(item) ? item.index : undefined;
    const embedding = isRecord(item) ? item.embedding : undefined;
    if (!isIndex(index, count) || out[index])
      throw badResponse(provider, `a bad or repeated data[${i}].index`);
    if (!Array.isArray(embedding) || embedding.length === 0)
      throw badResponse(provider, `data[${i}].embedding that is not a non-empty array`);
    const bad = embedding.findIndex((x) => typeof x !== 'number' || !Number.isFinite(x));
    if (bad >= 0) throw badResponse(provider, `data[${i}].embedding[${bad}] that is not a finite number`);
    out[index] = embedding as number[];
  });
  return out;
}

/** An Embedder that posts `{model, input}` batches; its id `openai:<host>/<model>` keys cached vectors. */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const timeoutMs = options.timeoutMs ?? OPENAI_EMBEDDER_DEFAULTS.timeoutMs;
  const batchSize = options.batchSize ?? OPENAI_EMBEDDER_DEFAULTS.batchSize;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new CarteError(
      'bad_config',
      `embedder batchSize must be a whole number of at least 1, not ${batchSize}`,
    );
  const url = embeddingsUrl(options.baseUrl);
  const id = `openai:${hostOf(url)}/${options.model}`;
  const post = { provider: id, apiKey: options.apiKey, timeoutMs, fetch: options.fetch ?? fetch };
  let dimension = options.dimension;

  function check(vectors: number[][]): void {
    for (const v of vectors) {
      dimension ??= v.length;
      if (v.length === dimension) continue;
      const got = `remote provider "${id}" answered ${v.length}-dimensional vectors`;
      throw new CarteError(
        'upstream_error',
        options.dimension === undefined
          ? `${got} but earlier vectors were ${dimension}-dimensional`
          : `${got} but the configured dimension is ${dimension}; set it to ${v.length} and re-embed, or use the model the stored vectors came from`,
      );
    }
  }

  return {
    id,
    /** 0 until the first answer when no dimension was configured. */
    get dimension() {
      return dimension ?? 0;
    },
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        // OpenAI refuses empty strings; a lone space embeds as "nothing".
        const input = texts.slice(i, i + batchSize).map((t) => (t.trim() === '' ? ' ' : t));
        const json = await postJson(url, { model: options.model, input }, post);
        const vectors = parseEmbeddings(id, json, input.length);
        check(vectors);
        for (const v of vectors) out.push(normalize(Float32Array.from(v)));
      }
      return out;
    },
  };
}
