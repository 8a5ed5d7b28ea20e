import { prepared, type Db } from './sqlite.js';
import type { ToolChanges, ToolRow, ToolSearchRow } from './types.js';

interface ToolDbRow {
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

function fromDb(r: ToolDbRow): ToolRow {
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

function toDb(t: ToolRow): ToolDbRow {
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

const COLUMNS = Object.keys(toDb({} as ToolRow));

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

  /** Writes one server's changes; the caller wraps this in the sync's transaction. */
  applyChanges(changes: ToolChanges, seenAt: string): void {
    const upsert = prepared(
      this.db,
      `INSERT INTO tools (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})
       ON CONFLICT(key) DO UPDATE SET ${COLUMNS.filter((c) => c !== 'key' && c !== 'first_seen_at')
         .map((c) => `${c} = excluded.${c}`)
         .join(', ')}`,
    );
    const del = prepared(this.db, 'DELETE FROM tools WHERE key = ?');
    const touch = prepared(this.db, 'UPDATE tools SET last_seen_at = ? WHERE key = ?');
    for (const t of [...changes.added, ...changes.changed]) upsert.run(toDb(t));
    for (const key of changes.removed) del.run(key);
    for (const key of changes.unchanged) touch.run(seenAt, key);
  }
}
