// Stored tool rows by key, for the call path: `ToolsRepo.get` reads the row and parses its five
// JSON columns on every call (about 15 µs of a proxied call's CPU, bench/load/profile.ts --http).
// Cleared on every catalog change, as the policies' key lists are: a key the policy lets through
// was read after the last change, so the row is as fresh as the caller's view of the catalog.
import type { Store, ToolRow } from '../../store/index.js';

/** Rows kept at most: a catalog's called tools fit; a bigger working set starts over (no LRU bookkeeping). */
export const TOOL_ROWS_MAX = 2000;

export class ToolRows {
  private readonly rows = new Map<string, ToolRow>();

  constructor(private readonly store: Pick<Store, 'tools'>) {}

  /** The stored row (frozen, shared by every caller), or undefined for an unknown key. */
  async get(key: string): Promise<ToolRow | undefined> {
    const held = this.rows.get(key);
    if (held) return held;
    const row = await this.store.tools.get(key);
    if (!row) return undefined;
    if (this.rows.size >= TOOL_ROWS_MAX) this.rows.clear();
    this.rows.set(key, deepFreeze(row));
    return row;
  }

  invalidate(): void {
    this.rows.clear();
  }
}

/** Frozen through and through, so a caller that changed a shared row (its schema) would throw, not corrupt it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
