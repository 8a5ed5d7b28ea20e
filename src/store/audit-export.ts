// A whole audit export a keyset page at a time, on either engine: each page is one read of
// `exportAudit({after, limit})` (rows past the last one yielded, oldest first, on the
// (at, id) order both engines index), so memory holds one page whatever the log's size, and no
// read stays open across an await (SQLite's connection is free between pages; PostgreSQL's pool
// lends a connection per page).
import type { Repositories } from './sqlite/api.js';
import type { AuditQuery, AuditRow } from './sqlite/audit-rows.js';

/** Rows read at a time by streamAudit unless told otherwise (a page of JSONL is ~0.5 MB). */
export const AUDIT_PAGE_ROWS = 1000;

/**
 * Every audit row matching `query`, oldest first, as pages of at most `pageRows` rows; at most
 * `query.limit` rows in all when it is given. Rows written during the export after its last page
 * are in it; the pages are not one snapshot.
 */
export async function* streamAudit(
  activity: Pick<Repositories['activity'], 'exportAudit'>,
  query: AuditQuery = {},
  pageRows: number = AUDIT_PAGE_ROWS,
): AsyncGenerator<AuditRow[], void, undefined> {
  let after = query.after;
  let left = query.limit ?? Infinity;
  while (left > 0) {
    const limit = Math.min(pageRows, left);
    const page = [...(await activity.exportAudit({ ...query, ...(after ? { after } : {}), limit }))];
    if (page.length > 0) yield page;
    const end = page.at(-1);
    if (page.length < limit || end === undefined) return;
    left -= page.length;
    after = { at: Date.parse(end.at), id: end.id };
  }
}
