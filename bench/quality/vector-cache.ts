// A text-keyed on-disk cache of embedding vectors (bench/out), so the 5-minute cold embed runs once.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Embedder } from '../../src/search/index.js';

/** Vectors by exact text. */
export type VectorCache = Map<string, Float32Array>;

/** Load a JSONL cache of {t: text, v: base64 float32}; empty when absent. Refuses other dimensions. */
export function loadVectorCache(file: string, dimension: number): VectorCache {
  const cache: VectorCache = new Map();
  if (!existsSync(file)) return cache;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const { t, v } = JSON.parse(line) as { t: string; v: string };
    const bytes = Buffer.from(v, 'base64');
    const vector = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    if (vector.length !== dimension) {
      throw new Error(
        `${file} holds ${vector.length}-dimension vectors, expected ${dimension}; delete it to re-embed`,
      );
    }
    cache.set(t, vector);
  }
  return cache;
}

function encode(v: Float32Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}

/** An embedder that answers from the cache and asks `inner` (appending to the file) for the rest. */
export function cachedEmbedder(
  cache: VectorCache,
  file: string,
  model: { id: string; dimension: number; load: () => Promise<Embedder> },
): Embedder {
  let inner: Embedder | undefined;
  return {
    id: model.id,
    dimension: model.dimension,
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
      if (missing.length > 0) {
        inner ??= await model.load();
        mkdirSync(dirname(file), { recursive: true });
        for (let i = 0; i < missing.length; i += 64) {
          const batch = missing.slice(i, i + 64);
          const vectors = await inner.embed(batch);
          batch.forEach((t, j) => cache.set(t, vectors[j]!));
          appendFileSync(
            file,
            `${batch.map((t, j) => JSON.stringify({ t, v: encode(vectors[j]!) })).join('\n')}\n`,
          );
        }
      }
      return texts.map((t) => cache.get(t)!);
    },
  };
}
