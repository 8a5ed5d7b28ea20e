import type { CAC } from 'cac';
import { CarteError } from '../../errors.js';
import { LOCAL_CALLER, type Gateway, type SyncReport } from '../../gateway/index.js';
import { openApp, type GlobalFlags } from '../shared/app.js';
import { count, formatTable, note, out, outJson } from '../shared/output.js';

/** `carte sync [--server ID]`: discover servers now, with a progress line per server. */
export function registerSync(cli: CAC): void {
  cli
    .command('sync', 'Discover the tools of every enabled server (or one)')
    .option('--server <id>', 'Only this server')
    .option('--json', 'Print JSON')
    .action(async (flags: GlobalFlags & { server?: string; json?: boolean }) => {
      const app = await openApp(flags);
      try {
        const reports = await syncWithProgress(app.gateway, {
          ...(flags.server ? { server: flags.server } : {}),
        });
        // Hybrid search (every project's): embed the new tools now, so the next search is hybrid at once.
        await app.gateway.prepareSearches(LOCAL_CALLER);
        if (flags.json) outJson(reports);
        else out(formatReports(reports));
        const failed = reports.filter((r) => r.status === 'failed');
        if (failed.length) {
          throw new CarteError(
            'upstream_unavailable',
            `${failed.length} of ${count(reports.length, 'server')} failed to sync: ${failed.map((r) => r.server).join(', ')}`,
          );
        }
      } finally {
        await app.close();
      }
    });
}

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
  if (r.status === 'failed')
    return `${r.server}: failed after ${r.durationMs} ms: ${r.error ?? 'unknown error'}`;
  return `${r.server}: ${count(r.toolCount, 'tool')} (+${r.added} ~${r.changed} -${r.removed}) in ${r.durationMs} ms`;
}

function formatReports(reports: SyncReport[]): string {
  const rows = reports.map((r) => [
    r.server,
    r.status,
    String(r.toolCount),
    `+${r.added} ~${r.changed} -${r.removed}`,
    `${r.durationMs} ms`,
  ]);
  return formatTable([['SERVER', 'STATUS', 'TOOLS', 'CHANGES', 'TIME'], ...rows]);
}
