// What a server started through a launcher (npx, uvx, docker) needs once sandboxed: `carte add`
// prints it (issue 42, §6; the grants are explained in docs/sandbox.md).
import { posix, win32 } from 'node:path';

/** The sandbox each package launcher needs: the registry it fetches from and the cache it writes. */
const LAUNCHER_GRANTS = {
  npx: { what: "npm's registry and cache", network: ['registry.npmjs.org'], allowWrite: ['~/.npm'] },
  uvx: {
    what: "PyPI and uv's cache",
    network: ['pypi.org', 'files.pythonhosted.org'],
    allowWrite: ['~/.cache/uv'],
  },
} as const;

/** The program a command names, bare and lower-case (`/usr/bin/npx` and `npx.cmd` are `npx`). */
function launcherOf(command: string): string {
  return win32
    .basename(posix.basename(command))
    .replace(/\.(cmd|exe|bat)$/i, '')
    .toLowerCase();
}

/**
 * One sentence for `carte add` when a stdio server starts through npx, uvx or docker: the grant
 * it needs to run sandboxed, or, for docker, why a sandbox does not hold it. Null for other commands.
 */
export function launcherAdvice(serverId: string, command: string): string | null {
  const launcher = launcherOf(command);
  if (launcher === 'docker')
    return `server "${serverId}" starts through docker, whose socket is a way out of any sandbox: keep it "sandbox: false" and rely on Docker's own isolation, knowingly (docs/sandbox.md)`;
  if (launcher !== 'npx' && launcher !== 'uvx') return null;
  const g = LAUNCHER_GRANTS[launcher];
  return `server "${serverId}" starts through ${launcher}, which needs ${g.what}: sandboxed, it needs sandbox: {network: [${g.network.join(', ')}], allowWrite: [${g.allowWrite.join(', ')}]} (docs/sandbox.md)`;
}
