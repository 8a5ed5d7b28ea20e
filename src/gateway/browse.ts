import { CarteError } from '../errors.js';
import type { ToolRow } from '../store/index.js';
import { summarize } from './summary.js';
import type { ToolSummary } from './types.js';

/** Tools per page in `browse_tools`. */
export const BROWSE_PAGE_SIZE = 50;

/** Encodes a page offset as an opaque cursor tied to the server it pages. */
export function encodeCursor(server: string, offset: number): string {
  return Buffer.from(JSON.stringify([server, offset])).toString('base64url');
}

/** Decodes a cursor; a cursor that is not ours or is for another server is a clear error. */
export function decodeCursor(server: string, cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  try {
    const [s, offset] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [unknown, unknown];
    if (s === server && typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // fall through to the error below
  }
  throw new CarteError(
    'bad_input',
    `cursor ${JSON.stringify(cursor.slice(0, 40))} is not a browse cursor for server "${server}"`,
  );
}

/** One page of a server's tools. */
export function pageTools(
  server: string,
  rows: ToolRow[],
  cursor?: string,
): { tools: ToolSummary[]; nextCursor?: string } {
  const offset = decodeCursor(server, cursor);
  const page = rows.slice(offset, offset + BROWSE_PAGE_SIZE).map((t) => ({
    key: t.key,
    ...(t.title ? { title: t.title } : {}),
    summary: summarize(t.description),
  }));
  const next = offset + BROWSE_PAGE_SIZE;
  return next < rows.length ? { tools: page, nextCursor: encodeCursor(server, next) } : { tools: page };
}
