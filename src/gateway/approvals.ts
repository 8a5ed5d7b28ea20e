// The approval flow (issue 15): what waits for a person, and their decisions. The CLI (`carte
// approvals|approve|reject`) and the HTTP face (`/api/v1/approvals`) both call these, so a
// proposal approved either way is checked, written and discovered the same way.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  addServerToFile,
  badGrant,
  checkProposal,
  describeServerTarget,
  didYouMean,
  loadConfigFile,
  parseConfigText,
  type CarteConfig,
  requestedNetwork,
  withGrant,
  type Problem,
  type ServerInput,
} from '../config/index.js';
import { CarteError, quote } from '../errors.js';
import {
  approveTool,
  describeQuarantine,
  type ApprovedTool,
  type QuarantineEntry,
} from '../catalog/index.js';
import { compileRules } from '../policy/index.js';
import type { Proposal, Store } from '../store/index.js';
import { callerLabel, type CallerContext } from './access/context.js';
import type { Gateway } from './gateway.js';
import { auditedAdminAct } from './trust/admin-act.js';
import { serversFromConfig } from './from-config.js';
import { projectsFromConfig } from './access/projects.js';
import { requireScope } from './access/scopes.js';
import type { SyncReport } from '../catalog/index.js';

/** Where approvals act: the running gateway, its store, and the config file approved servers go to. */
export interface ApprovalSite {
  gateway: Gateway;
  store: Store;
  /** The config file approved servers are written to; absent (the bundled demo): approving is refused. */
  configPath?: string;
  /** What `${env:NAME}` reads when the config is reloaded (the entry point passes process.env). */
  env: Record<string, string | undefined>;
  /** What `${dataDir}` expands to. */
  dataDir?: string;
}

/** A proposal that waits, with what the config as it is now says against it. */
export interface PendingProposal {
  id: string;
  server: string;
  source: string;
  /** How the server would be started or reached, secrets masked (the person approving must see it). */
  target: string;
  createdAt: string;
  /** The hosts it asks to reach (`sandbox.network` in the proposal); granted only by the approval. */
  network: string[];
  /** Why it cannot be approved now (a deny rule added since, an id taken since); empty when it can. */
  problems: Problem[];
}

export interface PendingApprovals {
  proposals: PendingProposal[];
  quarantined: QuarantineEntry[];
}

/** An approved proposal: where it was written and how its first discovery went. */
export interface ApprovedProposal {
  id: string;
  server: string;
  configPath: string;
  sync: SyncReport | undefined;
  /** The network hosts granted: a stdio server runs sandboxed with these; absent for a remote one. */
  grant?: string[];
}

/** An approval's choices: who decides (default: the caller) and the network hosts granted (default none). */
export interface ApprovalChoice {
  by?: string;
  grant?: string[];
}

/** Pending proposals and quarantined tools (admin scope). */
export async function listApprovals(ctx: CallerContext, site: ApprovalSite): Promise<PendingApprovals> {
  requireScope(ctx, 'admin', 'listing approvals');
  const config = site.configPath === undefined ? undefined : readConfig(site);
  const pending = await site.store.proposals.list({ status: 'pending' });
  const proposals = pending.map((p) => ({
    id: p.id,
    server: p.serverId,
    source: p.source,
    target: describeServerTarget(p.serverId, p.config),
    createdAt: p.createdAt,
    network: requestedNetwork(p.config),
    problems: config === undefined ? [] : proposalProblems(pending, config, p, site.configPath),
  }));
  const servers = operatedServers(ctx, site.gateway);
  const quarantined = (await describeQuarantine(site.store)).filter((q) => servers.has(q.server));
  return { proposals, quarantined };
}

/**
 * The servers the caller's project operates: another project's quarantined tools are neither
 * listed nor released (they answer as tools not held). The local operator operates every server.
 */
function operatedServers(ctx: CallerContext, gateway: Gateway): Set<string> {
  return new Set(gateway.listServers(ctx).map((s) => s.id));
}

/**
 * Approves a pending proposal: re-checked against the config as it is now, written into the
 * config file (comments kept, as `carte add` does), decided, then the gateway reloads the file,
 * which discovers the new server. A failed discovery is in `sync`, not thrown: the server is saved.
 */
export async function approveProposal(
  ctx: CallerContext,
  site: ApprovalSite,
  id: string,
  choice: ApprovalChoice = {},
): Promise<ApprovedProposal> {
  const by = choice.by ?? decider(ctx);
  const grant = choice.grant ?? [];
  const granted = (r: ApprovedProposal) =>
    r.grant?.length ? `, network granted: ${r.grant.join(', ')}` : '';
  const failed = (r: ApprovedProposal) =>
    r.sync?.status === 'failed' ? ' (its first discovery failed)' : '';
  return auditedAdminAct({ store: site.store, audit: site.gateway.audit }, ctx, {
    asked: `proposal approve ${quote(id, 40)}`,
    run: () => approve(ctx, site, id, { by, grant }),
    done: (r) => ({
      detail: `proposal approve ${r.id}: server ${quote(r.server)} written to ${r.configPath}${granted(r)}${failed(r)}`,
    }),
  });
}

async function approve(
  ctx: CallerContext,
  site: ApprovalSite,
  id: string,
  { by, grant }: Required<ApprovalChoice>,
): Promise<ApprovedProposal> {
  requireScope(ctx, 'admin', 'approving a proposal');
  const bad = badGrant(grant);
  if (bad !== undefined) throw new CarteError('bad_input', `proposal "${id}" was not approved: ${bad}`);
  const p = await pendingProposal(site.store, id);
  const path = configPathOf(site, id);
  const config = readConfig(site);
  const problems = proposalProblems(await pendingOf(site.store), config, p, path);
  if (problems.length > 0) {
    const lines = problems.map((x) => `  ${x.path}: ${x.message}`).join('\n');
    throw new CarteError('denied', `proposal "${id}" cannot be approved now:\n${lines}`);
  }
  const blocked = unresolvedVariables(p.serverId, p.config, site);
  if (blocked !== undefined)
    throw new CarteError('bad_config', `proposal "${id}" cannot be approved yet: ${blocked}`);
  // Registered servers run sandboxed, with only the hosts this approval grants (issue 42).
  const stdio = typeof p.config.command === 'string';
  addServerToFile(
    path,
    p.serverId,
    withGrant(p.config, grant, config.sandbox.default) as unknown as ServerInput,
  );
  await site.store.proposals.decide(id, 'approved', by, stdio ? { grant } : {});
  const reloaded = readConfig(site);
  const report = await site.gateway.reload(ctx, serversFromConfig(reloaded), {
    rules: compileRules(reloaded.rules),
    projects: projectsFromConfig(reloaded),
    hotList: { size: reloaded.menu.hotList, halfLifeDays: reloaded.menu.halfLifeDays },
  });
  return {
    id,
    server: p.serverId,
    configPath: path,
    sync: report.syncs.find((s) => s.server === p.serverId),
    ...(stdio ? { grant } : {}),
  };
}

/** Rejects a pending proposal; nothing of it was ever started. */
export async function rejectProposal(
  ctx: CallerContext,
  site: Pick<ApprovalSite, 'store' | 'gateway'>,
  id: string,
  by: string = decider(ctx),
): Promise<{ id: string; server: string }> {
  return auditedAdminAct({ store: site.store, audit: site.gateway.audit }, ctx, {
    asked: `proposal reject ${quote(id, 40)}`,
    run: async () => {
      requireScope(ctx, 'admin', 'rejecting a proposal');
      const p = await pendingProposal(site.store, id);
      await site.store.proposals.decide(id, 'rejected', by);
      return { id, server: p.serverId };
    },
    done: (r) => ({ detail: `proposal reject ${r.id}: server ${quote(r.server)}` }),
  });
}

/** Releases a quarantined tool and pins its current content (running gateways notice at their next request). */
export async function approveQuarantinedTool(
  ctx: CallerContext,
  site: Pick<ApprovalSite, 'store' | 'gateway'>,
  key: string,
): Promise<ApprovedTool> {
  return auditedAdminAct({ store: site.store, audit: site.gateway.audit }, ctx, {
    asked: `quarantine release ${quote(key, 120)}`,
    key,
    run: async () => {
      requireScope(ctx, 'admin', 'approving a quarantined tool');
      await heldInProject(ctx, site, key);
      const approved = await approveTool(site.store, key);
      await site.gateway.catalogChangedHere(); // other processes hear of it from the store
      return approved;
    },
    done: (t) => ({ detail: `quarantine release ${t.key} (${t.kind}): pinned to ${t.pinHash.slice(0, 12)}` }),
  });
}

/** Refuses a key that is not quarantined among the caller's project's servers, naming the ones that are. */
async function heldInProject(
  ctx: CallerContext,
  site: Pick<ApprovalSite, 'store' | 'gateway'>,
  key: string,
): Promise<void> {
  const servers = operatedServers(ctx, site.gateway);
  const held = (await describeQuarantine(site.store)).filter((q) => servers.has(q.server)).map((q) => q.key);
  if (held.includes(key)) return;
  const hint =
    held.length === 0
      ? 'no tool is'
      : `quarantined: ${held
          .slice(0, 5)
          .map((k) => quote(k))
          .join(', ')}${held.length > 5 ? `, and ${held.length - 5} more` : ''}`;
  throw new CarteError('bad_input', `tool ${quote(key)} is not quarantined; ${hint}`, {
    details: { key, quarantined: held },
  });
}

/** Why a proposal cannot be approved against this config: the checks re-run (deny may have changed) and id clashes. */
export function proposalProblems(
  pending: readonly Proposal[],
  config: Pick<CarteConfig, 'servers' | 'registration'>,
  p: Pick<Proposal, 'id' | 'serverId' | 'config'>,
  where?: string,
): Problem[] {
  return [
    ...checkProposal(p.serverId, p.config, { deny: config.registration.deny }),
    ...proposalClashes(pending, config, p.serverId, p.id, where),
  ];
}

/** The server id is taken in the config, or already waits in another (`pending`) proposal. */
export function proposalClashes(
  pending: readonly Proposal[],
  config: Pick<CarteConfig, 'servers'>,
  id: string,
  except?: string,
  where = 'the config',
): Problem[] {
  const at = `servers.${id}`;
  if (Object.hasOwn(config.servers, id))
    return [{ path: at, message: `server "${id}" is already in ${where}` }];
  const waiting = pending.find((p) => p.serverId === id && p.id !== except);
  return waiting === undefined
    ? []
    : [
        {
          path: at,
          message: `server "${id}" is already proposed as ${waiting.id}, which waits for a decision`,
        },
      ];
}

/**
 * Why the server could not load from the config file as it stands (an `${env:NAME}` not set), or
 * undefined. Checked before writing: a config that does not load stops every command.
 */
export function unresolvedVariables(
  id: string,
  server: Record<string, unknown>,
  site: Pick<ApprovalSite, 'configPath' | 'env' | 'dataDir'>,
): string | undefined {
  const path = join(dirname(configPathOf(site, id)), 'carte-proposal.json');
  const r = parseConfigText(JSON.stringify({ servers: { [id]: server } }), {
    path,
    env: site.env,
    ...(site.dataDir === undefined ? {} : { dataDir: site.dataDir }),
  });
  const first = r.errors[0];
  return first === undefined ? undefined : first.message.replace(/^./, (c) => c.toLowerCase());
}

/** Who decided, when the face does not say: `token:<id>` or `oidc:<sub>` for a bearer, `local` for the local user. */
function decider(ctx: CallerContext): string {
  return callerLabel(ctx) ?? 'local';
}

function configPathOf(site: Pick<ApprovalSite, 'configPath'>, id: string): string {
  if (site.configPath !== undefined) return site.configPath;
  throw new CarteError(
    'bad_config',
    `cannot approve "${id}": Carte runs the bundled demo, which has no config file to write to; start it with --config FILE`,
  );
}

/** The config file as it is now (a missing file is an empty config: approving creates it). */
export function readConfig(site: ApprovalSite): CarteConfig {
  const path = configPathOf(site, 'the proposal');
  const opts = { env: site.env, ...(site.dataDir === undefined ? {} : { dataDir: site.dataDir }) };
  const r = existsSync(path)
    ? loadConfigFile(path, opts)
    : parseConfigText('servers: {}\n', { ...opts, path });
  if (r.ok && r.config) return r.config;
  const lines = r.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message));
  throw new CarteError('bad_config', `config ${path} has problems:\n${lines.join('\n')}`, {
    details: { problems: r.errors },
  });
}

/** The proposals waiting for a decision: what a new one's server id may clash with. */
export function pendingOf(store: Store): Promise<Proposal[]> {
  return store.proposals.list({ status: 'pending' });
}

async function pendingProposal(store: Store, id: string): Promise<Proposal> {
  const p = await store.proposals.get(id);
  if (p !== undefined && p.status !== 'pending')
    throw new CarteError(
      'bad_input',
      `proposal "${id}" was already ${p.status} by ${p.decidedBy ?? 'someone'}`,
    );
  if (p !== undefined) return p;
  const pending = (await pendingOf(store)).map((x) => x.id);
  const hint =
    didYouMean(id, pending) ||
    (pending.length === 0 ? '; nothing is pending' : '; see the pending approvals');
  throw new CarteError('bad_input', `unknown proposal "${id}"${hint}`);
}
