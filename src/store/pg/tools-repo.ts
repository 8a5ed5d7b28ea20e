import type { ToolsContract } from './contracts.js';
import { COLUMNS, fromDb, toDb, type ToolDbRow } from '../sqlite/tools-repo.js';
import type { CategoryEntry, StoredCategory, ToolChanges, ToolRow, ToolSearchRow } from '../sqlite/types.js';
import { changes, row, rows, type Queryable } from './db.js';

/** Each column's array type for unnest(): one statement writes a whole batch. */
const ARRAY_TYPES: Record<string, string> = { schema_truncated_from: 'integer[]' };
const UPSERT = `INSERT INTO tools (${COLUMNS.join(', ')})
  SELECT * FROM unnest(${COLUMNS.map((c, i) => `$${i + 1}::${ARRAY_TYPES[c] ?? 'text[]'}`).join(', ')})
  ON CONFLICT (key) DO UPDATE SET ${COLUMNS.filter((c) => c !== 'key' && c !== 'first_seen_at')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}, category = NULL, tags = NULL`;

/** The last entry per key: a batch statement may touch a row once, where SQLite's loop let the last write win. */
function lastPerKey<T>(items: Iterable<T>, keyOf: (item: T) => string): T[] {
  return [...new Map([...items].map((item) => [keyOf(item), item])).values()];
}

/** Tools table on PostgreSQL: the contract of ../tools-repo.ts. */
export class PgToolsRepo implements ToolsContract {
  constructor(private readonly q: Queryable) {}

  async get(key: string): Promise<ToolRow | undefined> {
    const r = await row<ToolDbRow>(this.q, 'SELECT * FROM tools WHERE key = $1', [key]);
    return r && fromDb(r);
  }

  async listByServer(serverId: string): Promise<ToolRow[]> {
    const found = await rows<ToolDbRow>(this.q, 'SELECT * FROM tools WHERE server_id = $1 ORDER BY name', [
      serverId,
    ]);
    return found.map(fromDb);
  }

  async listAll(): Promise<ToolRow[]> {
    return (await rows<ToolDbRow>(this.q, 'SELECT * FROM tools ORDER BY key')).map(fromDb);
  }

  /** Every tool's searchable columns, ordered by key: no schema is read or parsed. */
  async listForSearch(): Promise<ToolSearchRow[]> {
    type Row = Pick<
      ToolDbRow,
      'key' | 'server_id' | 'name' | 'title' | 'description' | 'content_hash' | 'param_names'
    >;
    const found = await rows<Row>(
      this.q,
      'SELECT key, server_id, name, title, description, content_hash, param_names FROM tools ORDER BY key',
    );
    return found.map((r) => ({
      key: r.key,
      serverId: r.server_id,
      name: r.name,
      title: r.title,
      description: r.description,
      contentHash: r.content_hash,
      paramNames: JSON.parse(r.param_names) as string[],
    }));
  }

  async listContentHashes(): Promise<string[]> {
    return (await rows<{ h: string }>(this.q, 'SELECT content_hash AS h FROM tools')).map((r) => r.h);
  }

  async listKeys(): Promise<string[]> {
    return (await rows<{ key: string }>(this.q, 'SELECT key FROM tools ORDER BY key')).map((r) => r.key);
  }

  /** See ToolsRepo.applyChanges; three statements whatever the batch's size. */
  async applyChanges(c: ToolChanges, seenAt: string): Promise<void> {
    const upserts = lastPerKey([...c.added, ...c.changed], (t) => t.key).map(toDb);
    if (upserts.length > 0) {
      const columns = COLUMNS.map((col) => upserts.map((t) => t[col as keyof ToolDbRow]));
      await changes(this.q, UPSERT, columns);
    }
    if (c.removed.length > 0)
      await changes(this.q, 'DELETE FROM tools WHERE key = ANY($1::text[])', [c.removed]);
    if (c.unchanged.length > 0) {
      await changes(this.q, 'UPDATE tools SET last_seen_at = $1 WHERE key = ANY($2::text[])', [
        seenAt,
        c.unchanged,
      ]);
    }
  }

  /** Every categorised tool's stored category and tags, by key (one JSON text, parsed once). */
  async listCategories(): Promise<Map<string, StoredCategory>> {
    const sql = `SELECT coalesce(json_agg(json_build_array(key, category, tags::json) ORDER BY key), '[]')::text AS j
                 FROM tools WHERE category IS NOT NULL`;
    const r = await row<{ j: string }>(this.q, sql);
    const entries = JSON.parse(r!.j) as [string, StoredCategory['category'], string[] | null][];
    const out = new Map<string, StoredCategory>();
    for (const [key, category, tags] of entries) out.set(key, { category, tags: tags ?? [] });
    return out;
  }

  /** Stores tools' categories and tags (unknown keys are skipped). */
  async setCategories(entries: Iterable<CategoryEntry>): Promise<void> {
    const list = lastPerKey(entries, (e) => e.key);
    if (list.length === 0) return;
    await changes(
      this.q,
      `UPDATE tools SET category = u.category, tags = u.tags
       FROM unnest($1::text[], $2::text[], $3::text[]) AS u(key, category, tags) WHERE tools.key = u.key`,
      [list.map((e) => e.key), list.map((e) => e.category), list.map((e) => JSON.stringify(e.tags))],
    );
  }

  /** Ids of the servers with at least one tool not yet categorised, in id order. */
  async serversMissingCategories(): Promise<string[]> {
    const sql = 'SELECT DISTINCT server_id FROM tools WHERE category IS NULL ORDER BY server_id';
    return (await rows<{ server_id: string }>(this.q, sql)).map((r) => r.server_id);
  }

  /** Whether one server has a tool not yet categorised. */
  async hasMissingCategories(serverId: string): Promise<boolean> {
    const sql = 'SELECT 1 FROM tools WHERE server_id = $1 AND category IS NULL LIMIT 1';
    return (await rows(this.q, sql, [serverId])).length > 0;
  }
}
