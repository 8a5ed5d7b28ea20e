import { basename } from 'node:path';
import { isRecord } from '../problems/problems.js';
import { syntaxOf } from '../parse/parse-text.js';

/** Carte's own format, Claude Desktop / Cursor (`mcpServers`), or VS Code (`servers` + `inputs`). */
export type ConfigFormat = 'carte' | 'claude' | 'vscode';

/**
 * Which format a parsed document is in. `mcpServers` means Claude. A JSON file with `servers`
 * is VS Code's when it has `inputs`, a server with `type`, or is named `mcp.json` (and no
 * `search`/`limits` section); anything else is Carte's, whose unknown keys are errors.
 */
export function detectFormat(doc: unknown, path: string): ConfigFormat {
  if (!isRecord(doc)) return 'carte';
  if (Object.hasOwn(doc, 'mcpServers')) return 'claude';
  if (syntaxOf(path) !== 'json' || Object.hasOwn(doc, 'search') || Object.hasOwn(doc, 'limits'))
    return 'carte';
  if (Object.hasOwn(doc, 'inputs') || basename(path).toLowerCase() === 'mcp.json') return 'vscode';
  const servers = doc.servers;
  const typed =
    isRecord(servers) && Object.values(servers).some((s) => isRecord(s) && Object.hasOwn(s, 'type'));
  return typed ? 'vscode' : 'carte';
}
