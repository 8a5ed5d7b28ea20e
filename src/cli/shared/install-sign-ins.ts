// After `carte install` moved a client's servers: which of the remote ones need `carte auth login`
// (issue 41). Each moved remote server is synced once (a 401 makes it `needs_sign_in`, stored as
// `carte servers` and `carte doctor` show it); one with `oauth` settings for a person's sign-in
// whose sync did not succeed (unreachable now, say) is named too. Local servers are not started.
import { LOCAL_CALLER, type SyncReport } from '../../gateway/index.js';
import { openApp } from './app.js';
import type { InstallPaths } from './install-files.js';

/** One moved remote server that needs a sign-in, and what its sync said. */
export interface SignInNeeded {
  id: string;
  why: string;
}

/** The moved servers (ids in Carte's config) that need `carte auth login`, in the order given. */
export async function signInsNeeded(
  paths: Pick<InstallPaths, 'carte' | 'dataDir'>,
  added: readonly { id: string; entry: Record<string, unknown> }[],
): Promise<SignInNeeded[]> {
  const remote = added.filter((a) => typeof a.entry.url === 'string');
  if (remote.length === 0) return [];
  const app = await openApp({ config: paths.carte, dataDir: paths.dataDir }, 'silent');
  try {
    const reports = await Promise.all(
      remote.map((a) =>
        app.gateway.sync(LOCAL_CALLER, { server: a.id }).then(
          (r): SyncReport | undefined => r[0],
          () => undefined,
        ),
      ),
    );
    return remote.flatMap((a, i) => {
      const report = reports[i];
      if (report?.status === 'needs_sign_in') return [{ id: a.id, why: 'it asks for a sign-in' }];
      if (report?.status !== 'success' && signsInWithPerson(a.entry.oauth))
        return [{ id: a.id, why: 'it has oauth settings' }];
      return [];
    });
  } finally {
    await app.close();
  }
}

/** `oauth` settings for a sign-in a person makes (not `grant: client_credentials`, machine to machine). */
function signsInWithPerson(oauth: unknown): boolean {
  return (
    typeof oauth === 'object' &&
    oauth !== null &&
    (oauth as { grant?: unknown }).grant !== 'client_credentials'
  );
}
