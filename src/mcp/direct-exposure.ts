/**
 * The upstream tools one session sees in direct mode (issue 14, item 6): the hot list at the
 * start, then the tools search finds, at most `maxTools`, the least recently used dropped first.
 * Pure bookkeeping: the face sends `notifications/tools/list_changed` when a change says so.
 */

export interface DirectExposureOptions {
  /** Most tools exposed at once (config `exposure.maxTools`); at least 1. */
  maxTools: number;
}

/** A session's exposed tool keys, bounded, with least-recently-used eviction. */
export class DirectExposure {
  readonly maxTools: number;
  /** Exposed keys, least recently used first: Map keeps insertion order, so re-inserting renews. */
  private readonly recent = new Map<string, true>();
  private sorted: string[] | undefined = [];

  constructor(options: DirectExposureOptions) {
    if (!Number.isInteger(options.maxTools) || options.maxTools < 1) {
      throw new RangeError(`bug: DirectExposure maxTools must be an integer >= 1, got ${options.maxTools}`);
    }
    this.maxTools = options.maxTools;
  }

  /** Replaces the set with the hot list (hottest first), trimmed to maxTools; true if it changed. */
  seed(keys: readonly string[]): boolean {
    const before = this.snapshot();
    this.recent.clear();
    return this.renew(keys, before);
  }

  /**
   * Adds keys found by search (best first) and renews the ones already exposed, dropping the least
   * recently used past maxTools; true if the set changed, i.e. the tool list must be sent again.
   */
  touch(keys: readonly string[]): boolean {
    return this.renew(keys, this.snapshot());
  }

  /** Whether this key is exposed. */
  has(key: string): boolean {
    return this.recent.has(key);
  }

  /** The exposed keys in display order (sorted, so a set lists the same however it was reached). */
  keys(): readonly string[] {
    this.sorted ??= [...this.recent.keys()].sort();
    return this.sorted;
  }

  get size(): number {
    return this.recent.size;
  }

  /** Makes `keys` the most recent, the first of them most of all, then evicts down to maxTools. */
  private renew(keys: readonly string[], before: ReadonlySet<string>): boolean {
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      this.recent.delete(key);
      this.recent.set(key, true);
    }
    for (const key of this.recent.keys()) {
      if (this.recent.size <= this.maxTools) break;
      this.recent.delete(key);
    }
    const changed = before.size !== this.recent.size || [...before].some((k) => !this.recent.has(k));
    if (changed) this.sorted = undefined;
    return changed;
  }

  private snapshot(): ReadonlySet<string> {
    return new Set(this.recent.keys());
  }
}
