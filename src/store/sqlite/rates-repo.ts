// Rate-limit counters (issue 40, item 5): hits per key (a token, a project, an address's failed
// sign-ins) in fixed windows, and blocks on a key until a time. On SQLite they live in this
// process's memory, not the file: one daemon serves a data dir's HTTP (docs/design.md, "Protocol":
// one process per machine), and a write per request would contend with the audit's writes for the
// file's one write lock. PostgreSQL's replicas share them in tables (../pg/rates-repo.ts).

/** What one hit answers: the window's hits so far (this one included), and a block still running on `blockKey`. */
export interface RateHit {
  hits: number;
  /** The hits of `q.also` in the same window (this one included), when it was given. */
  alsoHits?: number;
  /** Epoch ms the block on `blockKey` ends, or null when there is none past `now`. */
  blockedUntil: number | null;
}

/** The counters in this process's memory. */
export class RatesRepo {
  private readonly windows = new Map<string, { start: number; hits: number }>();
  private readonly blocks = new Map<string, number>();

  /**
   * Adds one hit to `key` in the window that starts at `windowStart` (a new window starts from
   * zero), one to `q.also` too when given (a project's total), and reads the block on
   * `q.blockKey` at `q.now`, in one step (one statement on PostgreSQL).
   */
  hit(key: string, windowStart: number, q: { blockKey?: string; also?: string; now: number }): RateHit {
    const hits = this.add(key, windowStart);
    const blockedUntil = q.blockKey === undefined ? null : this.blockedUntil(q.blockKey, q.now);
    return q.also === undefined
      ? { hits, blockedUntil }
      : { hits, alsoHits: this.add(q.also, windowStart), blockedUntil };
  }

  private add(key: string, windowStart: number): number {
    const w = this.windows.get(key);
    const hits = w !== undefined && w.start === windowStart ? ++w.hits : 1;
    if (hits === 1) this.windows.set(key, { start: windowStart, hits });
    return hits;
  }

  /** Blocks `key` until `until` (epoch ms); a later block already there is kept. */
  block(key: string, until: number): void {
    this.blocks.set(key, Math.max(until, this.blocks.get(key) ?? 0));
  }

  /** When the block on `key` ends, or null when none lasts past `now`. */
  blockedUntil(key: string, now: number): number | null {
    const until = this.blocks.get(key);
    return until !== undefined && until > now ? until : null;
  }

  /** Forgets windows that started before `before` and blocks that ended by then; how many. */
  prune(before: number): number {
    let n = 0;
    for (const [key, w] of this.windows) if (w.start < before && this.windows.delete(key)) n++;
    for (const [key, until] of this.blocks) if (until <= before && this.blocks.delete(key)) n++;
    return n;
  }
}
