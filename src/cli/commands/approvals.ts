import type { CAC } from 'cac';
import { describeServerTarget, didYouMean } from '../../config/index.js';
import { CarteError } from '../../errors.js';
import { approveTool, describeQuarantine } from '../../gateway/index.js';
import { openApp, type App, type GlobalFlags } from '../app.js';
import { formatProblem, formatTable, out, outJson } from '../output.js';
import { clashes, discover, localDecider, recheck, unresolved, writeServer } from './register.js';

/** `carte approvals [--json]`: what waits for a person: pending proposals and quarantined tools. */
export function registerApprovals(cli: CAC): void {
  cli
    .command('approvals', 'List pending server proposals and quarantined tools')
    .option('--json', 'Print JSON')
    .action(async (flags: GlobalFlags & { json?: boolean }) => {
      const app = openApp(flags);
      try {
        const proposals = app.store.proposals.list({ status: 'pending' }).map((p) => ({
          id: p.id,
          server: p.serverId,
          source: p.source,
          target: describeServerTarget(p.serverId, p.config),
          createdAt: p.createdAt,
        }));
        const quarantined = describeQuarantine(app.store);
        if (flags.json) return outJson({ proposals, quarantined });
        if (proposals.length === 0 && quarantined.length === 0) return out('nothing waits for approval');
        if (proposals.length > 0) {
          const rows = proposals.map((p) => [p.id, p.server, p.source, p.target]);
          out(`proposed servers (carte approve ID | carte reject ID):`);
          out(formatTable([['id', 'server', 'source', 'target'], ...rows]));
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
    .action(async (id: string, flags: GlobalFlags) => {
      const app = openApp(flags);
      let written: { path: string; serverId: string } | undefined;
      try {
        if (id.includes('/')) return approveQuarantined(app, id);
        const p = pendingProposal(app, id);
        const problems = [...recheck(app, p.serverId, p.config), ...clashes(app, p.serverId, p.id)];
        if (problems.length > 0) {
          const lines = problems.map((x) => `  ${formatProblem(x)}`).join('\n');
          throw new CarteError('denied', `proposal "${id}" cannot be approved now:\n${lines}`);
        }
        const blocked = unresolved(app, p.serverId, p.config);
        if (blocked !== undefined)
          throw new CarteError('bad_config', `proposal "${id}" cannot be approved yet: ${blocked}`);
        const path = writeServer(app, p.serverId, p.config);
        app.store.proposals.decide(id, 'approved', localDecider());
        out(`approved ${id}: server "${p.serverId}" added to ${path}`);
        written = { path, serverId: p.serverId };
      } finally {
        await app.close();
      }
      if (written !== undefined) await discover(flags, [written.serverId], written.path);
    });
}

/** `carte reject ID`: a pending proposal is closed; nothing of it was ever started. */
export function registerReject(cli: CAC): void {
  cli.command('reject <id>', 'Reject a proposed server').action(async (id: string, flags: GlobalFlags) => {
    const app = openApp(flags);
    try {
      const p = pendingProposal(app, id);
      app.store.proposals.decide(id, 'rejected', localDecider());
      out(`rejected ${id} (server "${p.serverId}")`);
    } finally {
      await app.close();
    }
  });
}

function pendingProposal(app: App, id: string) {
  const p = app.store.proposals.get(id);
  if (p !== undefined && p.status !== 'pending')
    throw new CarteError(
      'bad_input',
      `proposal "${id}" was already ${p.status} by ${p.decidedBy ?? 'someone'}`,
    );
  if (p === undefined) {
    const pending = app.store.proposals.list({ status: 'pending' }).map((x) => x.id);
    const hint =
      didYouMean(id, pending) || (pending.length === 0 ? '; nothing is pending' : '; see carte approvals');
    throw new CarteError('bad_input', `unknown proposal "${id}"${hint}`);
  }
  return p;
}

/** approveTool names the key and the quarantined ones (did you mean) when it is not held. */
function approveQuarantined(app: App, key: string): void {
  approveTool(app.store, key);
  out(`approved tool "${key}": it is searchable and callable again`);
}
