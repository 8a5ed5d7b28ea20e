// An admin act and its `admin` row in the audit log (docs/security.md, "Admin rows"): token
// create and revoke (token-admin.ts), proposal decisions and quarantine releases (approvals.ts).
// The row says what was done and who did it; a bearer's refused attempt is a row too, with its
// error code as the outcome. The local operator's refused attempts (a typo in `carte token` or
// `carte approve`) are not security events.
import { quote, toCarteError } from '../../errors.js';
import type { Store } from '../../store/index.js';
import { localCaller, type CallerContext } from '../access/context.js';
import type { AuditEvent, AuditLog } from './audit.js';

/** Where an admin act is recorded: the store (to name the acting token) and the audit log. */
export interface AdminSite {
  store: Store;
  audit: AuditLog;
}

export interface AdminAct<T> {
  /** What was asked, for a refused attempt's row: never a secret. */
  asked: string;
  /** The tool the act is about (a quarantine release): the row's key and server. */
  key?: string;
  run: () => Promise<T>;
  /**
   * The row's detail once done; `project` is where a local operator's row goes (the local user
   * acts in every project: its row belongs where that project's admins see it).
   */
  done: (result: T) => { detail: string; project?: string };
}

/** Runs one admin act and writes its `admin` row, whether it worked or was refused. */
export async function auditedAdminAct<T>(
  site: AdminSite,
  caller: CallerContext,
  act: AdminAct<T>,
): Promise<T> {
  const start = performance.now();
  const local = caller.tokenId === undefined && caller.subject === undefined;
  const tool = act.key === undefined ? {} : { key: act.key, server: act.key.slice(0, act.key.indexOf('/')) };
  const write = async (ctx: CallerContext, what: string, outcome: AuditEvent['outcome']) => {
    const detail = `${what}; by ${await actor(site.store, caller)}`;
    site.audit.event(ctx, { kind: 'admin', ...tool, detail, outcome, durationMs: performance.now() - start });
  };
  let result: T;
  try {
    result = await act.run();
  } catch (err) {
    if (!local) await write(caller, act.asked, toCarteError(err).code);
    throw err;
  }
  const { detail, project } = act.done(result);
  await write(local && project !== undefined ? localCaller(project) : caller, detail, 'ok');
  return result;
}

/** Who acted: `token tok_… "name"`, the login link's token, an identity provider's subject, or the CLI. */
async function actor(store: Store, caller: CallerContext): Promise<string> {
  const id = caller.tokenId;
  if (id !== undefined) {
    if (id.startsWith('login_')) return `token ${id} (the login link)`;
    const row = await store.tokens.get(id).catch(() => undefined);
    return row?.name == null ? `token ${id}` : `token ${id} ${quote(row.name)}`;
  }
  return caller.subject === undefined ? 'the CLI' : `subject ${quote(caller.subject)}`;
}
