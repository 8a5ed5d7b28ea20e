import type { CAC } from 'cac';
import { CarteError } from '../../errors.js';
import { LOCAL_CALLER, loginCommand, type SyncReport } from '../../gateway/index.js';
import { openApp, type GlobalFlags } from '../shared/app.js';
import { count, formatTable, out, outJson } from '../shared/output.js';
import { syncWithProgress } from '../shared/sync-progress.js';

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
        const signIn = reports.filter((r) => r.status === 'needs_sign_in');
        if (signIn.length && !failed.length) {
          const ids = signIn.map((r) => r.server);
          throw new CarteError(
            'needs_sign_in',
            `${signIn.length} of ${count(reports.length, 'server')} need${signIn.length === 1 ? 's' : ''} a sign-in: ${ids.join(', ')}; run ${ids.map((id) => `\`${loginCommand(id)}\``).join(', ')}`,
          );
        }
        failed.push(...signIn);
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
