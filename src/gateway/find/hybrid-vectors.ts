// The catalog's tool vectors: read from the store's cache in one go, the missing ones embedded and
// written batch by batch (each batch its own short transaction, so a crash loses one batch).
import { embedAll, embeddableToolText, type Embedder, type SearchDoc } from '../../search/index.js';
import type { Store, ToolSearchRow } from '../../store/index.js';
import type { EmbedProgress } from '../shared/search-options.js';

export interface CatalogVectorsOptions {
  store: Store;
  embedder: Embedder;
  /** The id vectors are cached under (embedder id + text recipe). */
  modelId: string;
  batchSize: number;
  /** Checked after each await: a closing gateway writes nothing more. */
  isClosed: () => boolean;
  onProgress: (p: EmbedProgress) => void;
}

/**
 * One vector (or none: CJK-only text) per row, in order, and how many distinct vectors that is;
 * undefined when the gateway closed meanwhile.
 */
export async function catalogVectors(
  rows: readonly Pick<ToolSearchRow, 'contentHash'>[],
  docs: readonly SearchDoc[],
  options: CatalogVectorsOptions,
): Promise<{ vectors: (Float32Array | undefined)[]; held: number } | undefined> {
  const { store, embedder, modelId, batchSize } = options;
  // A remote model without a configured dimension learns it from its first answer.
  if (embedder.dimension === 0) await embedder.embed(['dimension probe']);
  if (options.isClosed()) return undefined;
  const { dimension } = embedder;
  const cached = await store.vectors.getMany(
    rows.map((r) => r.contentHash),
    modelId,
    dimension,
  );
  const missing = new Map<string, string>(); // content hash -> text; equal hashes embed once
  rows.forEach((r, i) => {
    const text = cached.has(r.contentHash) ? undefined : embeddableToolText(docs[i]!);
    if (text !== undefined) missing.set(r.contentHash, text);
  });
  const todo = [...missing];
  for (let i = 0; i < todo.length; i += batchSize) {
    const slice = todo.slice(i, i + batchSize);
    const got = await embedAll(
      embedder,
      slice.map(([, text]) => text),
    );
    if (options.isClosed()) return undefined;
    const written = slice.map(([hash], j) => ({ hash, vector: got[j]! }));
    await store.vectors.putMany(written, modelId, dimension);
    for (const { hash, vector } of written) cached.set(hash, vector);
    options.onProgress({ done: i + slice.length, total: todo.length });
  }
  return { vectors: rows.map((r) => cached.get(r.contentHash)), held: cached.size };
}
