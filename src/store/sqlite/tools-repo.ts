import { prepared, type Db } from './sqlite.js';
import type { CategoryEntry, StoredCategory, ToolChanges, ToolRow, ToolSearchRow } from './types.js';

export interface ToolDbRow {
  key: string;
  server_id: string;
  name: string;
  title: string | null;
  description: string | null;
  input_schema: string | null;
  output_schema: string | null;
  annotations: string | null;
  meta: string | null;
  execution: string | null;
  icons: string | null;
  schema_truncated_from: number | null;
  content_hash: string;
  /** Derived from input_schema on write: its top-level property names, a JSON array. */
  param_names: string;
  first_seen_at: string;
  last_seen_at: string;
}

const parse = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));
const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** Top-level property names of an input schema (none unless `properties` is an object). */
function paramNames(schema: unknown): string[] {
  const props = (schema as { properties?: unknown } | null | undefined)?.properties;
  return props && typeof props === 'object' && !Array.isArray(props) ? Object.keys(props) : [];
}

export function fromDb(r: ToolDbRow): ToolRow {
  return {
    key: r.key,
    serverId: r.server_id,
    name: r.name,
    title: r.title,
    description: r.description,
    inputSchema: parse(r.input_schema),
    outputSchema: parse(r.output_schema),
    annotations: parse(r.annotations),
    meta: parse(r.meta),
    execution: parse(r.execution),
    icons: parse(r.icons),
    schemaTruncatedFrom: r.schema_truncated_from,
    contentHash: r.content_hash,
    firstSeenAt: r.first_seen_at,
    lastSeenAt: r.last_seen_at,
  };
}

export function toDb(t: ToolRow): ToolDbRow {
  return {
    key: t.key,
    server_id: t.serverId,
    name: t.name,
    title: t.title,
    description: t.description,
    input_schema: json(t.inputSchema),
    output_schema: json(t.outputSchema),
    annotations: json(t.annotations),
    meta: json(t.meta),
    execution: json(t.execution),
    icons: json(t.icons),
    schema_truncated_from: t.schemaTruncatedFrom,
    content_hash: t.contentHash,
    param_names: JSON.stringify(paramNames(t.inputSchema)),
    first_seen_at: t.firstSeenAt,
    last_seen_at: t.lastSeenAt,
  };
}

export const COLUMNS = Object.keys(toDb({} as ToolRow));

/** Tools table: the persistent catalog, keyed by `server/name`. */
export class ToolsRepo {
  constructor(private readonly db: Db) {}

  get(key: string): ToolRow | undefined {
    const row = prepared(this.db, 'SELECT * FROM tools WHERE key = ?').get(key) as ToolDbRow | undefined;
    return row && fromDb(row);
  }

  listByServer(serverId: string): ToolRow[] {
    const rows = prepared(this.db, 'SELECT * FROM tools WHERE server_id = ? ORDER BY name').all(serverId);
    return (rows as ToolDbRow[]).map(fromDb);
  }

  listAll(): ToolRow[] {
    return (prepared(this.db, 'SELECT * FROM tools ORDER BY key').all() as ToolDbRow[]).map(fromDb);
  }

  /** Every tool's searchable columns, ordered by key: no schema is read or parsed. */
  listForSearch(): ToolSearchRow[] {
    const rows = prepared(
      this.db,
      'SELECT key, server_id, name, title, description, content_hash, param_names FROM tools ORDER BY key',
    ).all() as Pick<
      ToolDbRow,
      'key' | 'server_id' | 'name' | 'title' | 'description' | 'content_hash' | 'param_names'
    >[];
    return rows.map((r) => ({
      key: r.key,
      serverId: r.server_id,
      name: r.name,
      title: r.title,
      description: r.description,
      contentHash: r.content_hash,
      paramNames: JSON.parse(r.param_names) as string[],
    }));
  }

  /** Every stored tool's content hash (what cached vectors are keyed by). */
  listContentHashes(): string[] {
    return prepared(this.db, 'SELECT content_hash FROM tools').pluck().all() as string[];
  }

  listKeys(): string[] {
    return prepared(this.db, 'SELECT key FROM tools ORDER BY key').pluck().all() as string[];
  }

  /**
   * Writes one server's changes; the caller wraps this in the sync's transaction. A changed tool's
   * stored category is cleared (the sync writes the new one in the same transaction; a caller that
   * does not leaves it to the back-fill); an unchanged one keeps its own.
   */
  applyChanges(changes: ToolChanges, seenAt: string): void {
    const upsert = prepared(
      this.db,
      `INSERT INTO tools (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})
       ON CONFLICT(key) DO UPDATE SET ${COLUMNS.filter((c) => c !== 'key' && c !== 'first_seen_at')
         .map((c) => `${c} = excluded.${c}`)
         .join(', ')}, category = NULL, tags = NULL`,
    );
    const del = prepared(this.db, 'DELETE FROM tools WHERE key = ?');
    const touch = prepared(this.db, 'UPDATE tools SET last_seen_at = ? WHERE key = ?');
    for (const t of [...changes.added, ...changes.changed]) upsert.run(toDb(t));
    for (const key of changes.removed) del.run(key);
    for (const key of changes.unchanged) touch.run(seenAt, key);
  }

  /**
   * Every categorised tool's stored category and tags, by key; tools not yet categorised are
   * absent. SQLite builds one JSON text that is parsed once: measured at 7k tools, 6 ms against
   * 7.5 ms for a row per tool and a JSON.parse of each tags array (bench/core/categories-bench.ts).
   */
  listCategories(): Map<string, StoredCategory> {
    const sql = `SELECT json_group_array(json_array(key, category, json(tags))) FROM tools
                 WHERE category IS NOT NULL`;
    const rows = JSON.parse(prepared(this.db, sql).pluck().get() as string) as [
      string,
      StoredCategory['category'],
      string[] | null,
    ][];
    const out = new Map<string, StoredCategory>();
    for (const [key, category, tags] of rows) out.set(key, { category, tags: tags ?? [] });
    return out;
  }

  /** Stores tools' categories and tags (unknown keys are skipped); the caller wraps this in a transaction. */
  setCategories(entries: Iterable<CategoryEntry>): void {
    const update = prepared(this.db, 'UPDATE tools SET category = ?, tags = ? WHERE key = ?');
    for (const e of entries) update.run(e.category, JSON.stringify(e.tags), e.key);
  }

  /** Ids of the servers with at least one tool not yet categorised, in id order. */
  serversMissingCategories(): string[] {
    const sql = 'SELECT DISTINCT server_id FROM tools WHERE category IS NULL ORDER BY server_id';
    return prepared(this.db, sql).pluck().all() as string[];
  }

  /** Whether one server has a tool not yet categorised (an index seek, for every sync). */
  hasMissingCategories(serverId: string): boolean {
    const sql = 'SELECT 1 FROM tools WHERE server_id = ? AND category IS NULL LIMIT 1';
    return prepared(this.db, sql).pluck().get(serverId) !== undefined;
  }
}
