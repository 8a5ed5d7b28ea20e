import type { SandboxSpec } from './types.js';

/** What exists on the host, for the paths a sandbox mounts (a seam for tests). */
export interface PathKinds {
  kindOf(path: string): 'dir' | 'file' | null;
}

/** Where the network bridge's socket appears inside the sandbox. */
export const BRIDGE_SOCKET = '/tmp/.carte/net.sock';

/**
 * What comes back under the empty /run: NixOS keeps its programs there (PATH holds
 * /run/current-system/sw/bin), and they hold no sockets.
 */
const RUN_KEPT = ['/run/current-system', '/run/booted-system', '/run/wrappers', '/run/opengl-driver'];

/**
 * bubblewrap's arguments for one server: every namespace unshared (no network, its own pids, so
 * neither Carte's /proc nor its environment is visible), the root read-only, a private /tmp and
 * an empty /run (a network namespace does not stop a unix socket: /run holds PostgreSQL's, the
 * docker daemon's, D-Bus's and your session's, which `systemd-run --user` would start anything from),
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
  const hasRun = paths.kindOf('/run') === 'dir';
  if (hasRun) args.push('--tmpfs', '/run');
  const back = [...tmpRoots(opts.runFrom ?? []), ...(hasRun ? RUN_KEPT : [])];
  for (const root of new Set(back)) if (paths.kindOf(root)) args.push('--ro-bind', root, root);
  hide(spec.denyRead, paths, args);
  const writable = [...(spec.stateDir ? [spec.stateDir] : []), ...spec.allowWrite];
  for (const p of writable) if (paths.kindOf(p)) args.push('--bind', p, p);
  // A writable bind uncovers what was hidden below it (allowWrite: [~] would show ~/.ssh again):
  // those denied paths are covered once more, on top.
  hide(
    spec.denyRead.filter((p) => writable.some((w) => p.startsWith(`${w}/`))),
    paths,
    args,
  );
  if (opts.bridgeSocket) args.push('--bind', opts.bridgeSocket, BRIDGE_SOCKET);
  args.push('--setenv', 'TMPDIR', '/tmp');
  if (opts.cwd) args.push('--chdir', opts.cwd);
  return args;
}

/** Covers each path: a directory by an empty tmpfs, a file by /dev/null; a missing one needs nothing. */
function hide(denied: readonly string[], paths: PathKinds, args: string[]): void {
  for (const p of denied) {
    const kind = paths.kindOf(p);
    if (kind === 'dir') args.push('--tmpfs', p);
    else if (kind === 'file') args.push('--ro-bind', '/dev/null', p);
  }
}

/**
 * The top directories under /tmp or /run that hold what a server runs from (its command, a script
 * path in its arguments, its cwd, the node or perl that runs the network forwarder): the private /tmp and
 * the empty /run would hide them, and the server would not start. They come back read-only,
 * before the denied paths are covered, so a denied path inside one stays hidden. Never /run/user:
 * it is your session's sockets.
 */
export function tmpRoots(paths: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const p of paths) {
    const [, dir, top] = /^\/(tmp|run)\/([^/]+)/.exec(p) ?? [];
    if (top && top !== '.' && top !== '..' && !(dir === 'run' && top === 'user')) roots.add(`/${dir}/${top}`);
  }
  return [...roots];
}
