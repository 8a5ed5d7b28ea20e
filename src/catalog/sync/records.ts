import { createHash } from 'node:crypto';
import type { ToolRow } from '../../store/index.js';

/** A tool as an upstream listed it: untrusted data, checked field by field. */
export type ListedTool = Record<string, unknown>;

/** Limits applied when a listed tool becomes a record. */
export interface RecordLimits {
  /** Largest input/output schema kept verbatim, in bytes of JSON (default 64 KiB). */
  maxSchemaBytes: number;
}

export const RECORD_DEFAULTS: RecordLimits = { maxSchemaBytes: 64 * 1024 };

/** Tool names per SEP-986 are 1-128 chars of [A-Za-z0-9_.-]; we accept any non-empty name up to 256. */
const MAX_NAME = 256;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The key of a tool: `server/name`. */
export function toolKey(serverId: string, name: string): string {
  return `${serverId}/${name}`;
}

/**
 * Keeps a schema verbatim when it fits; otherwise keeps a reduced one (top-level type, required
 * and property names with their types) so the tool stays usable, and reports the original size.
 */
export function limitSchema(
  schema: unknown,
  maxBytes: number,
): { schema: unknown; truncatedFrom: number | null } {
  if (schema === undefined) return { schema: undefined, truncatedFrom: null };
  const size = Buffer.byteLength(JSON.stringify(schema) ?? '');
  if (size <= maxBytes) return { schema, truncatedFrom: null };
  const s = obj(schema) ?? {};
  const props = obj(s.properties) ?? {};
  const reduced: Record<string, unknown> = {
    type: 'object',
    description: `schema reduced by Carte: the original is ${size} bytes, over the ${maxBytes}-byte limit`,
    properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, pickType(v)])),
  };
  if (Array.isArray(s.required)) reduced.required = s.required.filter((r) => typeof r === 'string');
  if (Buffer.byteLength(JSON.stringify(reduced)) > maxBytes) delete reduced.properties;
  return { schema: reduced, truncatedFrom: size };
}

function pickType(v: unknown): Record<string, unknown> {
  const t = obj(v)?.type;
  return typeof t === 'string' || Array.isArray(t) ? { type: t as unknown } : {};
}

/** Result of turning one listed tool into a record: the row, or why it was skipped. */
export type RecordResult = { ok: true; row: ToolRow; warning?: string } | { ok: false; warning: string };

/** Builds the stored record for one listed tool (timestamps set to `now`). */
export function buildToolRecord(
  serverId: string,
  tool: ListedTool,
  now: string,
  limits = RECORD_DEFAULTS,
): RecordResult {
  const name = str(tool.name);
  if (!name || name.length > MAX_NAME) {
    return {
      ok: false,
      warning: `skipped a tool with an invalid name ${JSON.stringify(tool.name ?? null)?.slice(0, 80)}`,
    };
  }
  const annotations = obj(tool.annotations);
  const input = limitSchema(obj(tool.inputSchema) ?? { type: 'object' }, limits.maxSchemaBytes);
  const output = limitSchema(obj(tool.outputSchema), limits.maxSchemaBytes);
  const truncatedFrom = Math.max(input.truncatedFrom ?? 0, output.truncatedFrom ?? 0) || null;
  const row: ToolRow = {
    key: toolKey(serverId, name),
    serverId,
    name,
    title: str(tool.title) ?? str(annotations?.title),
    description: str(tool.description),
    inputSchema: input.schema,
    outputSchema: output.schema,
    annotations,
    meta: obj(tool._meta),
    execution: obj(tool.execution),
    icons: Array.isArray(tool.icons) ? tool.icons : undefined,
    schemaTruncatedFrom: truncatedFrom,
    contentHash: '',
    firstSeenAt: now,
    lastSeenAt: now,
  };
  row.contentHash = hashContent(row);
  const warning = truncatedFrom
    ? `tool "${name}" has a ${truncatedFrom}-byte schema, over the ${limits.maxSchemaBytes}-byte limit; a reduced schema is stored`
    : undefined;
  return warning ? { ok: true, row, warning } : { ok: true, row };
}

/** Content hash over everything an agent sees of a tool (not timestamps). */
export function hashContent(t: ToolRow): string {
  const content = [
    t.name,
    t.title,
    t.description,
    t.inputSchema,
    t.outputSchema,
    t.annotations,
    t.meta,
    t.execution,
    t.icons,
  ];
  return createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 32);
}
