// `request_server` (issue 15): an agent proposes one server, checked exactly as `carte register`
// checks a file. Refused: nothing is stored (the proposal may hold the very secret it was refused
// for). Matching `registration.allow`: written to the config file and discovered. Otherwise it
// waits as pending for a person. Nothing refused or pending is ever started.
import {
  addServerToFile,
  checkProposal,
  allowedAtOnce,
  withGrant,
  type AllowMatch,
  type Problem,
  redactText,
  type ServerInput,
} from '../config/index.js';
import { CarteError } from '../errors.js';
import { compileRules } from '../policy/index.js';
import { audited } from './trust/audited.js';
import {
  pendingOf,
  proposalClashes,
  readConfig,
  unresolvedVariables,
  type ApprovalSite,
} from './approvals.js';
import { callerLabel, type CallerContext } from './access/context.js';
import { serversFromConfig } from './from-config.js';
import { projectsFromConfig } from './access/projects.js';
import { requireScope } from './access/scopes.js';

/** The answer an agent reads: a proposal waiting for a person, or a server added at once. */
export type ServerRequestAnswer =
  | { status: 'pending'; id: string; server: string; message: string }
  | { status: 'approved'; id: string; server: string; tools: number; message: string };

/** Longest `reason` kept in the audit log, in characters: a sentence, not a document. */
export const MAX_REASON_LENGTH = 300;

/** Proposes one server for an agent (call scope); audited as an `admin` event naming the server. */
export function requestServer(
  ctx: CallerContext,
  site: ApprovalSite,
  input: unknown,
): Promise<ServerRequestAnswer> {
  requireScope(ctx, 'call', 'proposing a server');
  const { id, server, reason } = splitInput(input);
  const detail = `request_server ${id}${reason ? `: ${reason}` : ''}`;
  return audited(site.gateway.audit, ctx, { kind: 'admin', server: id, detail }, () =>
    propose(ctx, site, id, server),
  );
}

async function propose(
  ctx: CallerContext,
  site: ApprovalSite,
  id: string,
  server: Record<string, unknown>,
): Promise<ServerRequestAnswer> {
  const config = readConfig(site);
  const problems = [
    ...checkProposal(id, server, { deny: config.registration.deny }),
    ...proposalClashes(await pendingOf(site.store), config, id, undefined, 'the config'),
  ];
  if (problems.length > 0) throw refused(id, problems);
  const label = callerLabel(ctx);
  const source = label === undefined ? 'agent' : `agent:${label.replace(/^token:/, '')}`;
  const allowedBy = allowedAtOnce(server, config.registration.allow);
  const blocked = allowedBy && unresolvedVariables(id, server, site);
  if (allowedBy === undefined || blocked !== undefined) {
    const held = await site.store.proposals.insert({ serverId: id, config: server, source });
    const why = blocked === undefined ? '' : ` It matches the allowlist, but ${blocked}.`;
    const message = `Server "${id}" waits as ${held.id} until a person approves it (carte approve ${held.id}, or Approvals in the web menu).${why} Nothing was started.`;
    return { status: 'pending', id: held.id, server: id, message };
  }
  // Registered servers run sandboxed with no network (issue 42); hosts wait for a person.
  const written = withGrant(server, [], config.sandbox.default);
  addServerToFile(site.configPath!, id, written as unknown as ServerInput);
  const by = allowName(allowedBy);
  const held = await site.store.proposals.insert({
    serverId: id,
    config: server,
    source,
    status: 'approved',
    decidedBy: by,
    ...(typeof server.command === 'string' ? { grant: [] } : {}),
  });
  const tools = await reloadAndDiscover(ctx, site, id);
  const message = `Server "${id}" matches ${by}: it was added and discovered with ${tools} tools; search_tools finds them.`;
  return { status: 'approved', id: held.id, server: id, tools, message };
}

/**
 * Reloads the config file the server was written to, which discovers it. Approval was the
 * allowlist's decision, not the agent's: the reload runs with the operator's admin scope.
 */
async function reloadAndDiscover(ctx: CallerContext, site: ApprovalSite, id: string): Promise<number> {
  const config = readConfig(site);
  const report = await site.gateway.reload({ ...ctx, scopes: ['admin'] }, serversFromConfig(config), {
    rules: compileRules(config.rules),
    projects: projectsFromConfig(config),
    hotList: { size: config.menu.hotList, halfLifeDays: config.menu.halfLifeDays },
  });
  const sync = report.syncs.find((s) => s.server === id);
  if (sync?.status === 'failed')
    throw new CarteError(
      'upstream_unavailable',
      `server "${id}" was added to the config, but its discovery failed; a person must look at it`,
    );
  return sync?.toolCount ?? 0;
}

/** The id, the server in Carte's shape (every other key, checked by checkProposal) and the reason. */
function splitInput(input: unknown): { id: string; server: Record<string, unknown>; reason?: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new CarteError('bad_input', 'request_server expects an object {id, command, args, ...}');
  const { id, reason, ...rest } = input as Record<string, unknown>;
  if (typeof id !== 'string' || id === '')
    throw new CarteError('bad_input', 'request_server needs "id", the new server\'s id, as a string');
  const server = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  const why =
    typeof reason === 'string' ? redactText(reason).replace(/\s+/g, ' ').slice(0, MAX_REASON_LENGTH) : '';
  return { id, server, ...(why ? { reason: why } : {}) };
}

/** Every problem, one per line; checkProposal's messages never quote a value that may be secret. */
function refused(id: string, problems: Problem[]): CarteError {
  const lines = problems.map((p) => `  ${p.path}: ${p.message}`).join('\n');
  return new CarteError('bad_input', `server "${id}" was refused; nothing was stored:\n${lines}`, {
    details: { violations: problems },
  });
}

/** `registration.allow.packages "@modelcontextprotocol/*"`, as `carte register` says it. */
function allowName(m: AllowMatch): string {
  return `registration.allow.${m.list} ${JSON.stringify(m.pattern)}`;
}
