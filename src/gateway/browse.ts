import { CarteError } from '../errors.js';
import { policyTool, type VisibilityPolicy } from '../policy/index.js';
import type { ToolRow } from '../store/index.js';
import { agentServer } from './agent-view.js';
import { summarize } from './summary.js';
import type { BrowseResult, GatewayServer, ServerSummary, ToolSummary } from './types.js';

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

/** What `browseMenu` reads from the gateway. */
export interface BrowseSource {
  policy: VisibilityPolicy;
  servers: readonly GatewayServer[];
  rowsOf(serverId: string): ToolRow[];
  summary(s: GatewayServer): ServerSummary;
  /** The configured server, or the unknown-server error. */
  server(id: string): GatewayServer;
}

/** The agent's menu: servers with what it may use of them, or one server's visible tools, paged. */
export function browseMenu(src: BrowseSource, req: { server?: string; cursor?: string }): BrowseResult {
  if (!req.server) {
    const counts = new Map<string, number>();
    for (const key of src.policy.visibleKeys()) {
      const id = policyTool(key).server;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return {
      kind: 'servers',
      servers: src.servers.map((s) => agentServer(src.summary(s), counts.get(s.id) ?? 0)),
    };
  }
  const s = src.server(req.server);
  const rows = src.rowsOf(s.id).filter((t) => src.policy.canSee(t.key));
  const { usable, reason } = agentServer(src.summary(s), rows.length);
  return {
    kind: 'tools',
    server: s.id,
    usable,
    ...(reason ? { reason } : {}),
    total: rows.length,
    ...pageTools(s.id, rows, req.cursor),
  };
}
