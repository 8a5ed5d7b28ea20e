// The catalog view's lexical index, read from a stored snapshot of its analysis when one matches
// the catalog, else built and stored for the next cold start (search/lexical/snapshot.ts).
import {
  analyseCatalog,
  buildSearchIndex,
  decodeLexicalState,
  deferredSearchIndex,
  encodeLexicalState,
  RANKER_DEFAULTS,
  snapshotKey,
  type LexicalState,
  type SearchDoc,
  type LexicalIndex,
} from '../../search/index.js';
import type { Store } from '../../store/index.js';

/**
 * Catalogs smaller than this build in a few milliseconds: a snapshot would cost more to store
 * than it saves (the demo catalog, 37 tools, builds in about 9 ms; 7k tools in about 300).
 */
export const SNAPSHOT_MIN_TOOLS = 1000;

export interface IndexSnapshotOptions {
  snapshots: Pick<Store['snapshots'], 'get' | 'put'>;
  /** Told when a snapshot cannot be read or written; the search itself never fails for it. */
  warn: (message: string) => void;
  minTools?: number;
  /** Analyses the docs elsewhere (a child process: `analysisApart`); undefined from it analyses here. */
  analyse?: (docs: readonly SearchDoc[]) => Promise<LexicalState | undefined>;
}

/**
 * The lexical index over `docs`; `from` says whether a snapshot served it, `translatorId` the
 * translator its glosses were made with.
 */
export async function buildIndexWithSnapshot(
  docs: readonly SearchDoc[],
  opts: IndexSnapshotOptions,
): Promise<{ index: LexicalIndex; from: 'snapshot' | 'build' | 'small'; translatorId: string }> {
  const translator = RANKER_DEFAULTS.translator;
  if (docs.length < (opts.minTools ?? SNAPSHOT_MIN_TOOLS)) {
    const index = buildSearchIndex(docs);
    return { index, from: 'small', translatorId: translator.id };
  }
  const before = translator.id;
  const key = snapshotKey(docs, RANKER_DEFAULTS);
  let state: LexicalState | undefined;
  try {
    const bytes = await opts.snapshots.get(key);
    if (bytes) state = decodeLexicalState(bytes, docs.length);
  } catch (err) {
    opts.warn(`search snapshot not used, rebuilding the index: ${(err as Error).message}`);
  }
  const from = state ? 'snapshot' : 'build';
  if (!state) {
    state = (await opts.analyse?.(docs)) ?? analyseCatalog(docs, RANKER_DEFAULTS);
    // A dictionary found unusable while glossing changes the translator's id (its glosses were made
    // without it): the snapshot goes under the key of the glosses it holds.
    const storedKey = translator.id === before ? key : snapshotKey(docs, RANKER_DEFAULTS);
    try {
      await opts.snapshots.put(storedKey, encodeLexicalState(state));
    } catch (err) {
      opts.warn(`search snapshot not stored (the next cold start rebuilds it): ${(err as Error).message}`);
    }
  }
  // Built at its first search: callers whose policies hide tools search subsets derived from its state.
  return { index: deferredSearchIndex(docs, state), from, translatorId: translator.id };
}
