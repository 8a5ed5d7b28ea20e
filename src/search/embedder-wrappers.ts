// Embedders around an embedder: one that loads its model on first use, one that remembers queries.
import type { Embedder } from './embedder.js';

/** Query vectors kept by `withQueryCache`: a few hundred repeated queries cost nothing. */
export const QUERY_CACHE_SIZE = 256;

/**
 * An embedder whose model is loaded by the first `embed` call, so building one costs nothing and a
 * model that cannot load fails there (every call then rejects with the same error).
 */
export function lazyEmbedder(
  model: { id: string; dimension: number },
  load: () => Promise<Embedder>,
): Embedder {
  let loading: Promise<Embedder> | undefined;
  const loaded = async (): Promise<Embedder> => {
    const e = await load();
    if (e.id !== model.id || e.dimension !== model.dimension) {
      throw new Error(
        `the embedder loaded as "${e.id}" (${e.dimension} values) but was declared as "${model.id}" (${model.dimension}); declare what the model is`,
      );
    }
    return e;
  };
  return {
    id: model.id,
    dimension: model.dimension,
    async embed(texts) {
      loading ??= loaded();
      return (await loading).embed(texts);
    },
  };
}

/**
 * `embedder` with an LRU cache of single-text calls (how the hybrid index embeds a query).
 * Concurrent calls for one text share a request; a failed request is forgotten.
 */
export function withQueryCache(embedder: Embedder, size: number = QUERY_CACHE_SIZE): Embedder {
  const cache = new Map<string, Promise<Float32Array>>();
  const remember = (text: string): Promise<Float32Array> => {
    const hit = cache.get(text);
    if (hit) {
      cache.delete(text); // re-insert: a Map iterates in insertion order, so the first key is the oldest
      cache.set(text, hit);
      return hit;
    }
    const vector = embedder.embed([text]).then(([v]) => {
      if (!v) throw new Error(`the embedder "${embedder.id}" returned no vector for a query`);
      return v;
    });
    vector.catch(() => cache.get(text) === vector && cache.delete(text));
    cache.set(text, vector);
    if (cache.size > size) cache.delete(cache.keys().next().value!);
    return vector;
  };
  return {
    id: embedder.id,
    dimension: embedder.dimension,
    async embed(texts) {
      if (texts.length !== 1) return embedder.embed(texts);
      return [await remember(texts[0]!)];
    },
  };
}
