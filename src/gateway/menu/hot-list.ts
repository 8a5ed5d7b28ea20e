// The hot list (T0) and the usage the search prior reads: recency-weighted call counts from the
// activity table, read at most once per HOT_REFRESH_MS and again after a catalog change, never
// per request (the query scans the recent calls).
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

export class HotList {
  /** Per project: its scores and when they were read. */
  private read = new Map<string, { scores: Map<string, number>; at: number }>();
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
  }

  /** Each used tool's recency-weighted call count in `project` (empty when the table cannot be read). */
  usage(project: string): ReadonlyMap<string, number> {
    const now = this.now();
    const held = this.read.get(project);
    if (held && now - held.at < HOT_REFRESH_MS) return held.scores;
    let scores: Map<string, number>;
    try {
      const rows = this.store.activity.hotScores({
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
    this.read.set(project, { scores, at: now });
    return scores;
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
