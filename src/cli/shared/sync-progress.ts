// `carte sync`'s progress on stderr, one line per server as each starts and ends; `serve`, `add`
// and `register` sync the same way.
import { LOCAL_CALLER, loginCommand, type Gateway, type SyncReport } from '../../gateway/index.js';
import { count, note } from './output.js';

/** Syncs with one progress line per server on stderr (shared by `sync`, `serve` and `add`). */
export async function syncWithProgress(
  gateway: Gateway,
  opts: { server?: string; onlyStale?: boolean },
): Promise<SyncReport[]> {
  let done = 0;
  let total = 0;
  return gateway.sync(LOCAL_CALLER, {
    ...opts,
    onStart: (id) => {
      total++;
      note(`syncing ${id}…`);
    },
    onReport: (r) => {
      done++;
      note(`[${done}/${total}] ${describeReport(r)}`);
      for (const w of r.warnings) note(`  warning: ${w}`);
    },
  });
}

function describeReport(r: SyncReport): string {
  if (r.status === 'needs_sign_in')
    return `${r.server}: needs a sign-in after ${r.durationMs} ms; run \`${loginCommand(r.server)}\``;
  if (r.status === 'failed')
    return `${r.server}: failed after ${r.durationMs} ms: ${r.error ?? 'unknown error'}`;
  return `${r.server}: ${count(r.toolCount, 'tool')} (+${r.added} ~${r.changed} -${r.removed}) in ${r.durationMs} ms`;
}
