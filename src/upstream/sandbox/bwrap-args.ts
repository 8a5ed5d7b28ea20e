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
  opts: { cwd?: string; bridgeSocket?: string },
): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-all'];
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
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
