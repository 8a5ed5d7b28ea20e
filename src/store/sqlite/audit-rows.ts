// The audit log's reads over the activity table (issue 15, item 5): filters, row shape, mapping.
import { CarteError } from '../../errors.js';
import type { ActivityKind } from './types.js';

/** Filters of `carte audit` and `carte audit export`; all optional. */
export interface AuditQuery {
  /** Epoch ms: rows at or after. */
  since?: number;
  /** Epoch ms: rows before. */
  until?: number;
  project?: string;
  /** A tool key (exact). */
  key?: string;
  kinds?: readonly ActivityKind[];
  /** An outcome (exact): `ok`, `tool_error`, `started`, `interrupted` or an error code. */
  outcome?: string;
  /** Only rows past this one in the read's order (older for `audit`, newer for `exportAudit`): a page's cursor. */
  after?: AuditCursor;
  /** An identity provider's subject (`sub`), exact. */
  subject?: string;
  /** At most this many rows (a whole number >= 1); all when absent. */
  limit?: number;
}

/** Where a page of audit rows ended: its last row's time (epoch ms) and id. */
export interface AuditCursor {
  at: number;
  id: number;
}

/** One audit row as `carte audit --json` and `carte audit export` print it (field names are stable). */
export interface AuditRow {
  id: number;
  /** ISO time the event started. */
  at: string;
  kind: ActivityKind;
  requestId: string | null;
  /** The token's public id (never the token); null for the local user. */
  tokenId: string | null;
  project: string | null;
  key: string | null;
  server: string | null;
  /**
   * `started` (in flight), `interrupted` (its process died before it finished: `detail` is the ISO
   * time of the start that found it), `ok`, `tool_error` or an error code.
   */
  outcome: string;
  durationMs: number;
  resultBytes: number | null;
  /** First 16 hex of sha256 over the arguments' canonical JSON. */
  argsDigest: string | null;
  /** The arguments with secrets redacted, only under `audit.arguments: redacted`. */
  args: unknown;
  /** A search's query digest (or redacted query), an admin action's subject, an interrupted call's finding time. */
  detail: string | null;
  /** The `sub` of the identity provider's access token that asked; null for Carte's own tokens and the local user. */
  subject: string | null;
  /** The client that token was issued to (`azp` or `client_id`); null as `subject`. */
  client: string | null;
  /** For a call made by a run_code script: the id of the script's `code` row; null otherwise. */
  parentId: number | null;
}

const COLUMNS = `id, at, kind, request_id, token_id, project, key, server, outcome, duration_ms,
  result_bytes, args_digest, args, detail, subject, client, parent_id`;

type Raw = [
  number,
  number,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string,
  number,
  number | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  number | null,
];

/** The SELECT for a query, newest first or oldest first, and its named parameters. */
export function auditSelect(q: AuditQuery, order: 'newest' | 'oldest'): { sql: string; params: object } {
  if (q.limit !== undefined && (!Number.isInteger(q.limit) || q.limit < 1)) {
    throw new CarteError('bad_input', `the audit limit must be a whole number of at least 1, not ${q.limit}`);
  }
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  const add = (clause: string, name: string, value: unknown) => {
    where.push(clause);
    params[name] = value;
  };
  if (q.since !== undefined) add('at >= @since', 'since', q.since);
  if (q.until !== undefined) add('at < @until', 'until', q.until);
  if (q.project !== undefined) add('project = @project', 'project', q.project);
  if (q.key !== undefined) add('key = @key', 'key', q.key);
  if (q.subject !== undefined) add('subject = @subject', 'subject', q.subject);
  if (q.kinds !== undefined)
    add('kind IN (SELECT value FROM json_each(@kinds))', 'kinds', JSON.stringify(q.kinds));
  if (q.outcome !== undefined) add('outcome = @outcome', 'outcome', q.outcome);
  const dir = order === 'newest' ? 'DESC' : 'ASC';
  if (q.after !== undefined) {
    const past = order === 'newest' ? '<' : '>';
    add(`(at ${past} @afterAt OR (at = @afterAt AND id ${past} @afterId))`, 'afterAt', q.after.at);
    params.afterId = q.after.id;
  }
  // ORDER BY at, id walks the time index (it holds the rowid) in either direction: no sort.
  const sql = `SELECT ${COLUMNS} FROM activity${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
               ORDER BY at ${dir}, id ${dir}${q.limit === undefined ? '' : ` LIMIT ${q.limit}`}`;
  return { sql, params };
}

/** A raw row (`.raw()`) as an AuditRow. */
export function toAuditRow(r: unknown[]): AuditRow {
  const [
    id,
    at,
    kind,
    requestId,
    tokenId,
    project,
    key,
    server,
    outcome,
    durationMs,
    resultBytes,
    digest,
    args,
    detail,
    subject,
    client,
    parentId,
  ] = r as Raw;
  return {
    id,
    at: new Date(at).toISOString(),
    kind: kind as ActivityKind,
    requestId,
    tokenId,
    project,
    key,
    server,
    outcome,
    durationMs,
    resultBytes,
    argsDigest: digest,
    args: args === null ? null : parseArgs(args),
    detail,
    subject,
    client,
    parentId: parentId === null ? null : Number(parentId),
  };
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text; // written by another tool: show it as it is
  }
}
