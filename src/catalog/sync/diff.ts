import type { ToolChanges, ToolRow } from '../../store/index.js';

/**
 * Pure diff of what an upstream listed against what the store holds for that server.
 * Changed tools keep their first-seen time; unchanged ones are only touched.
 */
export function diffTools(stored: readonly ToolRow[], listed: readonly ToolRow[]): ToolChanges {
  const before = new Map(stored.map((t) => [t.key, t]));
  const changes: ToolChanges = { added: [], changed: [], removed: [], unchanged: [] };
  const seen = new Set<string>();
  for (const t of listed) {
    seen.add(t.key);
    const old = before.get(t.key);
    if (!old) changes.added.push(t);
    else if (old.contentHash !== t.contentHash) changes.changed.push({ ...t, firstSeenAt: old.firstSeenAt });
    else changes.unchanged.push(t.key);
  }
  for (const key of before.keys()) if (!seen.has(key)) changes.removed.push(key);
  return changes;
}

/** Turns a listing into records, dropping duplicate names (the first wins) with a warning each. */
export function dedupeByKey(rows: readonly ToolRow[]): { rows: ToolRow[]; warnings: string[] } {
  const seen = new Set<string>();
  const out: ToolRow[] = [];
  const warnings: string[] = [];
  for (const r of rows) {
    if (seen.has(r.key)) {
      warnings.push(`tool name "${r.name}" is listed more than once; the first is kept`);
      continue;
    }
    seen.add(r.key);
    out.push(r);
  }
  return { rows: out, warnings };
}
