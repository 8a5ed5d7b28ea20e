import {
  analyseCatalog,
  buildSearchIndex,
  deferredSearchIndex,
  RANKER_DEFAULTS,
  subsetLexicalState,
  type LexicalIndex,
  type LexicalState,
  type SearchDoc,
} from '../../search/index.js';
import type { Store, ToolSearchRow } from '../../store/index.js';
import type { CatalogMirror } from '../shared/catalog-mirror.js';
import type { VisibilityPolicy } from '../../policy/index.js';
import { buildIndexWithSnapshot, SNAPSHOT_MIN_TOOLS, type IndexSnapshotOptions } from './index-snapshot.js';

/**
 * A tool's search columns as a search document, with its menu filing (for `tag:` and `category:`)
 * and the use cases rules attach to it: both come from the policy, never from the catalog tables.
 */
export function toSearchDoc(
  t: ToolSearchRow,
  serverDescription?: string,
  filing?: { category: string; tags: readonly string[]; useCases?: readonly string[] },
): SearchDoc {
  return {
    key: t.key,
    server: t.serverId,
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    ...(t.description ? { description: t.description } : {}),
    paramNames: t.paramNames,
    ...(serverDescription ? { serverDescription } : {}),
    ...(filing?.useCases?.length ? { useCases: [...filing.useCases] } : {}),
    ...(filing
      ? { categories: [filing.category], ...(filing.tags.length ? { tags: [...filing.tags] } : {}) }
      : {}),
  };
}

/** How the catalog view builds its index, beyond reading a snapshot. */
export interface CatalogViewBuild {
  /**
   * Resolves when the gloss files being built are there (gateway-parts' prepareDictionaries). A
   * catalog big enough for a snapshot waits for them, its event loop free, rather than block on
   * each (ensureGlossFile) and be built again when the translator's id changes (Apertium's list
   * counts once its file is built); a smaller one builds in milliseconds and does not wait.
   */
  glossesReady?: () => Promise<void>;
  /** Analyses a catalog with no snapshot elsewhere (`analysisApart`, a serving gateway's). */
  analyse?: IndexSnapshotOptions['analyse'];
}

/**
 * The searchable view of the stored catalog (its in-memory mirror). `prepare` rebuilds it after a
 * change, reading a stored snapshot of the analysis when one matches; a search that comes first
 * builds it without one. Reads never start an upstream or wait on the database.
 */
export class CatalogView {
  private index: LexicalIndex | null = null;
  private rows = new Map<string, ToolSearchRow>();
  private docs: SearchDoc[] = [];
  private builtVersion = -1;
  /** The translator's id when the index was built: its glosses are that translator's. */
  private builtFor = '';
  private preparing: Promise<void> | null = null;
  /** Per-caller indexes, keyed by the caller's policy (a new policy after any change). */
  private scoped = new WeakMap<VisibilityPolicy, { version: number; index: LexicalIndex }>();
  /** Goes up on every change, so derived state (the hybrid index) knows when it is stale. */
  version = 0;

  constructor(
    private readonly store: Pick<Store, 'snapshots'>,
    private readonly mirror: Pick<CatalogMirror, 'tools'>,
    /** Which tools belong in the index and how they are filed (taken once per rebuild). */
    private readonly policy: () => VisibilityPolicy,
    private readonly serverDescriptions: () => ReadonlyMap<string, string>,
    private readonly log: { debug(message: string): void; warn(message: string): void },
    private readonly building: CatalogViewBuild = {},
  ) {}

  invalidate(): void {
    this.index = null;
    this.version++;
  }

  /**
   * The searchable tools of the current catalog: rows and their search docs, in the same order,
   * and the lexical analysis of those docs (so the hybrid index need not analyse them again).
   */
  snapshot(): { version: number; rows: ToolSearchRow[]; docs: SearchDoc[]; lexicalState: LexicalState } {
    const { lexicalState } = this.searchIndex();
    return { version: this.builtVersion, rows: [...this.rows.values()], docs: this.docs, lexicalState };
  }

  /**
   * Builds the index for the current catalog now, from a stored snapshot when one matches. Calls
   * while one is under way share it, rather than each reading and decoding the snapshot.
   */
  prepare(): Promise<void> {
    this.dropIfGlossedOtherwise();
    if (this.index) return Promise.resolve();
    this.preparing ??= this.build().finally(() => (this.preparing = null));
    return this.preparing;
  }

  private async build(): Promise<void> {
    if (this.mirror.tools.length >= SNAPSHOT_MIN_TOOLS) await this.building.glossesReady?.();
    const version = this.version;
    const docs = this.collect();
    const started = performance.now();
    const { index, from, translatorId } = await buildIndexWithSnapshot(docs.docs, {
      snapshots: this.store.snapshots,
      warn: (message) => this.log.warn(message),
      ...(this.building.analyse ? { analyse: this.building.analyse } : {}),
    });
    if (this.version !== version || this.index) return; // changed (or built) meanwhile
    this.install(docs, index, translatorId);
    // The index of callers who see what the catalog policy lists (a project with every server and
    // no rules of its own), ready before their first search.
    this.searchIndexFor(this.policy()).search(''); // an empty query builds it and answers nothing
    const how = { snapshot: 'read from its snapshot', build: 'built, snapshot stored', small: 'built' };
    this.log.debug(
      `search index: ${docs.docs.length} tools, ${how[from]} in ${Math.round(performance.now() - started)} ms`,
    );
  }

  searchIndex(): LexicalIndex {
    this.dropIfGlossedOtherwise();
    if (!this.index) {
      const docs = this.collect();
      const state = analyseCatalog(docs.docs, RANKER_DEFAULTS);
      this.install(docs, deferredSearchIndex(docs.docs, state), RANKER_DEFAULTS.translator.id);
    }
    return this.index!;
  }

  /**
   * The translator's id changes when a dictionary turns out unusable or a gloss file is built after
   * the index was (docs/search.md, "Other languages"): the index is then built again, from the
   * snapshot of the new id's glosses when one is stored, never served with the old glosses.
   */
  private dropIfGlossedOtherwise(): void {
    if (this.index && this.builtFor !== RANKER_DEFAULTS.translator.id) this.invalidate();
  }

  private collect(): { rows: ToolSearchRow[]; docs: SearchDoc[] } {
    const policy = this.policy();
    const descriptions = this.serverDescriptions();
    const rows = this.mirror.tools.filter((t) => policy.isIndexed(t.key));
    const docs = rows.map((t) => toSearchDoc(t, descriptions.get(t.serverId), policy.verdict(t.key)));
    return { rows, docs };
  }

  private install(
    { rows, docs }: { rows: ToolSearchRow[]; docs: SearchDoc[] },
    index: LexicalIndex,
    translatorId: string,
  ): void {
    this.builtFor = translatorId;
    this.rows = new Map(rows.map((t) => [t.key, t]));
    this.docs = docs;
    this.index = index;
    this.builtVersion = this.version;
  }

  /**
   * The index a caller searches: the catalog's when the caller's policy lists every indexed tool,
   * else one built from the tools it lists, so no statistic (idf, the typo vocabulary, synonyms)
   * depends on tools it cannot see (a search would otherwise rank differently because another
   * project's tools exist). Built on first use after a change, not stored as a snapshot (the store
   * keeps two: the catalog's).
   */
  searchIndexFor(policy: VisibilityPolicy): LexicalIndex {
    const all = this.searchIndex();
    const held = this.scoped.get(policy);
    if (held && held.version === this.builtVersion) return held.index;
    const keep: number[] = [];
    this.docs.forEach((d, i) => policy.isListed(d.key) && keep.push(i));
    const docs = keep.map((i) => this.docs[i]!);
    // Its analysis is the catalog index's, kept per tool: only the statistics are computed again.
    const index =
      keep.length === this.docs.length
        ? all
        : buildSearchIndex(docs, {}, subsetLexicalState(all.lexicalState, docs, keep, RANKER_DEFAULTS));
    this.scoped.set(policy, { version: this.builtVersion, index });
    return index;
  }

  row(key: string): ToolSearchRow | undefined {
    this.searchIndex();
    return this.rows.get(key);
  }
}
