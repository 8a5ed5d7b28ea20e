import { createHash } from 'node:crypto';
import type { ServerConfig } from './schema.js';

/**
 * A sha256 (hex) of what identifies the upstream: command, args, env, cwd, url, headers and
 * transport, as resolved. Settings such as timeoutMs, enabled or description do not change it,
 * so editing them keeps the cached tool list.
 */
export function serverConfigHash(server: ServerConfig): string {
  const identity =
    server.kind === 'stdio'
      ? { command: server.command, args: server.args, env: sorted(server.env), cwd: server.cwd ?? null }
      : { url: server.url, headers: sorted(server.headers), transport: server.transport ?? null };
  return createHash('sha256')
    .update(JSON.stringify({ kind: server.kind, ...identity }))
    .digest('hex');
}

function sorted(record: Record<string, string>): [string, string][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
