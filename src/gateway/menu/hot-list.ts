// The hot list (T0) and the usage the search prior reads: recency-weighted call counts from the
// activity table, read at most once per HOT_REFRESH_MS and again after a catalog change, never
// per request (the query scans the recent calls). Reads are async (the store may be PostgreSQL):
// the async paths await `refresh` first; the synchronous ones read what is held.
import type { VisibilityPolicy } from '../../policy/index.js';
import type { Store } from '../../store/index.js';

/** How long a read of the usage scores is reused. */
export const HOT_REFRESH_MS = 30_000;
/** Tools scored per read: the hot list takes the first listed ones, the search prior all. */
export const HOT_SCORES_READ = 200;

export interface HotListOptions {
  /** Tools in the hot list: pinned first, then the most used. */
  size: number;
  /** Half-life of a call's weight, in days. */
  halfLifeDays: number;
}

export const HOT_LIST_DEFAULTS: HotListOptions = { size: 12, halfLifeDays: 7 };

const NO_SCORES: ReadonlyMap<string, number> = new Map();

export class HotList {
  /** Per project: its scores and when they were read. */
  private read = new Map<string, { scores: Map<string, number>; at: number }>();
  private readonly pending = new Map<string, Promise<void>>();
  /** Goes up on every invalidate: a read begun before one is not kept. */
  private generation = 0;
  private warned = false;

  constructor(
    private readonly store: Pick<Store, 'activity'>,
    private options: HotListOptions,
    private readonly warn: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** New options from a reloaded config (`menu.hotList`, `menu.halfLifeDays`); scores are read again. */
  configure(options: HotListOptions): void {
    this.options = options;
    this.invalidate();
  }

  /** Forget the scores (the catalog changed: keys may have gone). */
  invalidate(): void {
    this.read.clear();
    this.generation++;
  }

  /**
   * Each used tool's recency-weighted call count in `project`, as last read (empty before the
   * first read or when the table cannot be read); a stale read starts a new one for later callers.
   */
  usage(project: string): ReadonlyMap<string, number> {
    const held = this.read.get(project);
    if (!held || this.now() - held.at >= HOT_REFRESH_MS) void this.refresh(project);
    return held?.scores ?? NO_SCORES;
  }

  /** Reads `project`'s scores unless a read younger than HOT_REFRESH_MS is held (the async paths await it). */
  refresh(project: string): Promise<void> {
    const held = this.read.get(project);
    if (held && this.now() - held.at < HOT_REFRESH_MS) return Promise.resolve();
    let pending = this.pending.get(project);
    if (!pending) {
      pending = this.readScores(project).finally(() => this.pending.delete(project));
      this.pending.set(project, pending);
    }
    return pending;
  }

  private async readScores(project: string): Promise<void> {
    const now = this.now();
    const generation = this.generation;
    let scores: Map<string, number>;
    try {
      const rows = await this.store.activity.hotScores({
        now,
        halfLifeDays: this.options.halfLifeDays,
        limit: HOT_SCORES_READ,
        project,
      });
      scores = new Map(rows.map((r) => [r.key, r.score]));
    } catch (err) {
      if (!this.warned)
        this.warn(`cannot read tool usage, the hot list shows pins only: ${(err as Error).message}`);
      this.warned = true;
      scores = new Map();
    }
    if (generation === this.generation) this.read.set(project, { scores, at: now });
  }

  /** T0: the policy's pinned tools, then the project's most used listed ones, at most `size` in all. */
  keys(policy: VisibilityPolicy, project: string, size = this.options.size): string[] {
    const pinned = policy.pinnedKeys();
    const out = pinned.slice(0, size);
    const taken = new Set(out);
    for (const [key] of this.usage(project)) {
      if (out.length >= size) break;
      if (!taken.has(key) && policy.isListed(key)) out.push(key);
    }
    return out;
  }
}
