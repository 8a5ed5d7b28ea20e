import type { CAC } from 'cac';
import { existsSync } from 'node:fs';
import {
  approveProposal,
  approveQuarantinedTool,
  LOCAL_CALLER,
  listApprovals,
  rejectProposal,
  type ApprovalSite,
} from '../../gateway/index.js';
import { CarteError } from '../../errors.js';
import { openApp, type App, type GlobalFlags } from '../shared/app.js';
import { count, formatTable, out, outJson } from '../shared/output.js';
import { localDecider, noteCreated, writablePath } from './register.js';

/** `carte approvals [--json]`: what waits for a person: pending proposals and quarantined tools. */
export function registerApprovals(cli: CAC): void {
  cli
    .command('approvals', 'List pending server proposals and quarantined tools')
    .option('--json', 'Print JSON')
    .action(async (flags: GlobalFlags & { json?: boolean }) => {
      const app = await openApp(flags);
      try {
        const listed = await listApprovals(
          LOCAL_CALLER,
          site(app, app.source === 'demo' ? undefined : app.path),
        );
        const proposals = listed.proposals.map(({ problems: _problems, ...p }) => p);
        const { quarantined } = listed;
        if (flags.json) return outJson({ proposals, quarantined });
        if (proposals.length === 0 && quarantined.length === 0) return out('nothing waits for approval');
        if (proposals.length > 0) {
          const rows = proposals.map((p) => [
            p.id,
            p.server,
            p.source,
            p.target,
            p.network.join(', ') || '-',
          ]);
          out(`proposed servers (carte approve ID [--grant HOST] | carte reject ID):`);
          out(formatTable([['id', 'server', 'source', 'target', 'asks to reach'], ...rows]));
        }
        if (quarantined.length > 0) {
          out(`quarantined tools (carte approve KEY):`);
          for (const q of quarantined) {
            out(`${q.key}  ${q.kind}  since ${q.since}: ${q.reason}`);
            if (q.diff) out(q.diff.replace(/^/gm, '    '));
          }
        }
      } finally {
        await app.close();
      }
    });
}

/** `carte approve ID|KEY`: a proposal id writes the server and discovers it; a tool key leaves quarantine. */
export function registerApprove(cli: CAC): void {
  cli
    .command('approve <id>', 'Approve a proposed server (prop_...) or a quarantined tool (server/tool)')
    .option(
      '--grant <host>',
      'A network host the server may reach (host, host:port, *.example.com); repeat for more. Default none: it runs sandboxed with no network',
    )
    .action(async (id: string, flags: GlobalFlags & { grant?: string | string[] }) => {
      const app = await openApp(flags);
      try {
        if (id.includes('/')) {
          // approveQuarantinedTool names the key and the quarantined ones when it is not held.
          await approveQuarantinedTool(LOCAL_CALLER, app, id);
          return out(`approved tool "${id}": it is searchable and callable again`);
        }
        const { path, fresh } = writablePath(app);
        const grant = [flags.grant ?? []].flat().map(String);
        const r = await approveProposal(LOCAL_CALLER, site(app, path), id, { by: localDecider(), grant });
        if (fresh && existsSync(path)) noteCreated(path);
        out(`approved ${id}: server "${r.server}" added to ${r.configPath}`);
        if (r.grant) out(`it runs sandboxed; network: ${r.grant.join(', ') || 'none'}`);
        if (r.sync?.status === 'failed')
          throw new CarteError(
            'upstream_unavailable',
            `saved, but discovery failed for ${r.server}: ${r.sync.error ?? 'unknown error'}`,
          );
        out(`${r.server}: ${count(r.sync?.toolCount ?? 0, 'tool')}`);
      } finally {
        await app.close();
      }
    });
}

/** `carte reject ID`: a pending proposal is closed; nothing of it was ever started. */
export function registerReject(cli: CAC): void {
  cli.command('reject <id>', 'Reject a proposed server').action(async (id: string, flags: GlobalFlags) => {
    const app = await openApp(flags);
    try {
      const r = await rejectProposal(LOCAL_CALLER, app, id, localDecider());
      out(`rejected ${id} (server "${r.server}")`);
    } finally {
      await app.close();
    }
  });
}

function site(app: App, configPath: string | undefined): ApprovalSite {
  return {
    gateway: app.gateway,
    store: app.store,
    env: process.env,
    dataDir: app.dataDir,
    ...(configPath === undefined ? {} : { configPath }),
  };
}
