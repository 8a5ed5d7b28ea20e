// Embedders around an embedder: one that loads its model on first use, one that remembers queries.
import { embedAll, type Embedder } from './embedder.js';

/** Query vectors kept by `withQueryCache`: a few hundred repeated queries cost nothing. */
export const QUERY_CACHE_SIZE = 256;

/** What `warmUp` embeds once the model is loaded: its first run compiles the kernels (about 150 ms for USE-Lite). */
export const WARM_UP_TEXT = 'warm up';

/**
 * An embedder whose model is loaded by `warmUp` or the first `embed` call, so building one costs
 * nothing and a model that cannot load fails there. A failed load is forgotten: the next call
 * loads again, so a model that becomes loadable (a package installed, memory freed) heals.
 */
export function lazyEmbedder(
  model: { id: string; dimension: number },
  load: () => Promise<Embedder>,
): Embedder {
  let loading: Promise<Embedder> | undefined;
  let warm: Promise<void> | undefined;
  const loaded = async (): Promise<Embedder> => {
    const e = await load();
    if (e.id !== model.id || e.dimension !== model.dimension) {
      throw new Error(
        `the embedder loaded as "${e.id}" (${e.dimension} values) but was declared as "${model.id}" (${model.dimension}); declare what the model is`,
      );
    }
    return e;
  };
  const get = (): Promise<Embedder> => {
    loading ??= loaded().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
  return {
    id: model.id,
    dimension: model.dimension,
    async embed(texts) {
      return (await get()).embed(texts);
    },
    warmUp() {
      warm ??= get()
        .then((e) => embedAll(e, [WARM_UP_TEXT]))
        .then(
          () => undefined,
          (err: unknown) => {
            warm = undefined;
            throw err;
          },
        );
      return warm;
    },
  };
}

/**
 * `embedder` with an LRU cache of query texts (how the hybrid index embeds its queries): each text
 * of a call is answered from the cache, and the texts it lacks are embedded in one call to
 * `embedder` (a multi-step search costs one model run or one request). Concurrent calls for one
 * text share a request; a failed request is forgotten.
 */
export function withQueryCache(embedder: Embedder, size: number = QUERY_CACHE_SIZE): Embedder {
  const cache = new Map<string, Promise<Float32Array>>();
  const touch = (text: string, vector: Promise<Float32Array>): void => {
    cache.delete(text); // re-insert: a Map iterates in insertion order, so the first key is the oldest
    cache.set(text, vector);
    if (cache.size > size) cache.delete(cache.keys().next().value!);
  };
  /** Embeds `texts` (none cached) in one call; each text's promise is cached and returned. */
  const fetchMissing = (texts: string[]): Map<string, Promise<Float32Array>> => {
    if (texts.length === 0) return new Map();
    const batch = embedAll(embedder, texts, 'queries');
    return new Map(
      texts.map((text, i) => {
        const vector = batch.then((vs) => vs[i]!);
        vector.catch(() => cache.get(text) === vector && cache.delete(text));
        touch(text, vector);
        return [text, vector];
      }),
    );
  };
  return {
    id: embedder.id,
    dimension: embedder.dimension,
    ...(embedder.warmUp ? { warmUp: () => embedder.warmUp!() } : {}),
    async embed(texts) {
      // Hits are taken before the misses are added: adding may evict, even texts of this call.
      const hits = new Map(texts.flatMap((t) => (cache.has(t) ? [[t, cache.get(t)!] as const] : [])));
      for (const [t, v] of hits) touch(t, v);
      const fetched = fetchMissing([...new Set(texts.filter((t) => !hits.has(t)))]);
      return Promise.all(texts.map((t) => hits.get(t) ?? fetched.get(t)!));
    },
  };
}
