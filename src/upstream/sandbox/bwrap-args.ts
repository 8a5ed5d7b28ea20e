import type { SandboxSpec } from './types.js';

/** What exists on the host, for the paths a sandbox mounts (a seam for tests). */
export interface PathKinds {
  kindOf(path: string): 'dir' | 'file' | null;
}

/** Where the network bridge's socket appears inside the sandbox. */
export const BRIDGE_SOCKET = '/tmp/.carte/net.sock';

/**
 * bubblewrap's arguments for one server: every namespace unshared (no network, its own pids, so
 * neither Carte's /proc nor its environment is visible), the root read-only, a private /tmp,
 * the denied paths covered (directories by an empty tmpfs, files by /dev/null), then the writable
 * paths bound back, so a state dir inside the hidden data dir stays reachable. Order matters:
 * bwrap applies mounts in argument order.
 */
export function bwrapArgs(
  spec: SandboxSpec,
  paths: PathKinds,
  opts: { cwd?: string; bridgeSocket?: string; runFrom?: readonly string[] },
): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-all'];
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  for (const root of tmpRoots(opts.runFrom ?? [])) if (paths.kindOf(root)) args.push('--ro-bind', root, root);
  for (const p of spec.denyRead) {
    const kind = paths.kindOf(p);
    if (kind === 'dir') args.push('--tmpfs', p);
    else if (kind === 'file') args.push('--ro-bind', '/dev/null', p);
  }
  const writable = [...(spec.stateDir ? [spec.stateDir] : []), ...spec.allowWrite];
  for (const p of writable) if (paths.kindOf(p)) args.push('--bind', p, p);
  if (opts.bridgeSocket) args.push('--bind', opts.bridgeSocket, BRIDGE_SOCKET);
  args.push('--setenv', 'TMPDIR', '/tmp');
  if (opts.cwd) args.push('--chdir', opts.cwd);
  return args;
}

/**
 * The top directories under /tmp that hold what a server runs from (its command, a script path in
 * its arguments, its cwd, the node that runs the network forwarder): the private /tmp would hide
 * them, and the server would not start. They come back read-only, before the denied paths are
 * covered, so a denied path inside one stays hidden.
 */
export function tmpRoots(paths: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const p of paths) {
    const top = /^\/tmp\/([^/]+)/.exec(p)?.[1];
    if (top && top !== '.' && top !== '..') roots.add(`/tmp/${top}`);
  }
  return [...roots];
}
