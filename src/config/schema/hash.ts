import { createHash } from 'node:crypto';
import type { ServerConfig } from './schema.js';

/** The data dir each loaded server's `${dataDir}` expanded to (the loader records it). */
const dataDirs = new WeakMap<object, string>();

/** Records the data dir `server` (a resolved server) was expanded with, for `serverConfigHash`. */
export function rememberDataDir(server: object, dataDir: string): void {
  dataDirs.set(server, dataDir);
}

/**
 * A sha256 (hex) of what identifies the upstream: command, args, env, cwd, url, headers and
 * transport, as resolved. Settings such as timeoutMs, enabled or description do not change it,
 * so editing them keeps the cached tool list. The data dir the loader expanded counts as
 * `${dataDir}`: replicas on one database each have their own, and a command run with another one
 * must not find the server changed and drop its tools for everyone.
 */
export function serverConfigHash(server: ServerConfig): string {
  const dir = dataDirs.get(server);
  const v = (text: string): string => (dir ? text.replaceAll(dir, '${dataDir}') : text);
  const each = (record: Record<string, string>): [string, string][] =>
    sorted(record).map(([k, x]) => [k, v(x)]);
  const identity =
    server.kind === 'stdio'
      ? {
          command: v(server.command),
          args: server.args.map(v),
          env: each(server.env),
          cwd: server.cwd === undefined ? null : v(server.cwd),
        }
      : { url: v(server.url), headers: each(server.headers), transport: server.transport ?? null };
  return createHash('sha256')
    .update(JSON.stringify({ kind: server.kind, ...identity }))
    .digest('hex');
}

function sorted(record: Record<string, string>): [string, string][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
