import type { CAC } from 'cac';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import {
  addServerToFile,
  readProposalFile,
  requestedNetwork,
  withGrant,
  type AllowMatch,
  type CheckedProposal,
  type Problem,
  type ServerInput,
} from '../../config/index.js';
import { CarteError } from '../../errors.js';
import { pendingOf, proposalClashes, unresolvedVariables } from '../../gateway/index.js';
import { openApp, type App, type GlobalFlags } from '../shared/app.js';
import { count, formatProblem, note, out } from '../shared/output.js';
import { syncWithProgress } from '../shared/sync-progress.js';

/**
 * `carte register FILE`: each server in the file is checked; a refused one prints its problems
 * and is not stored (its config may hold the very secret it was refused for); one matching
 * `registration.allow` is written to the config file and discovered; any other waits as pending.
 */
export function registerRegister(cli: CAC): void {
  cli
    .command('register <file>', 'Propose servers from a YAML or JSON file (Carte or mcpServers format)')
    .action(async (file: string, flags: GlobalFlags) => {
      const app = await openApp(flags);
      const approved: string[] = [];
      let writtenTo: string | undefined;
      let refused = 0;
      let total: number;
      try {
        const path = resolve(file);
        const read = readProposalFile(path, app.config.registration);
        for (const w of read.warnings) note(`warning: ${formatProblem(w)}`);
        if (read.errors.length > 0) throw fileProblems(file, read.errors);
        total = read.proposals.length;
        const source = `cli:${path}`;
        for (const p of read.proposals) {
          const problems = [...p.problems, ...(await clashes(app, p.id))];
          if (problems.length > 0) {
            refused++;
            out(`refused ${p.id}:`);
            for (const problem of problems) out(`  ${formatProblem(problem)}`);
          } else if (p.allowedBy === undefined) await holdPending(app, p, source);
          else {
            const path = await approveAtOnce(app, p, source);
            if (path !== undefined) {
              writtenTo = path;
              approved.push(p.id);
            }
          }
        }
      } finally {
        await app.close();
      }
      if (writtenTo !== undefined) await discover(flags, approved, writtenTo);
      if (refused > 0)
        throw new CarteError('bad_input', `${refused} of ${count(total, 'proposed server')} refused`);
    });
}

/** Writes a checked proposal to the config file now and returns the file; undefined when it cannot start yet. */
async function approveAtOnce(app: App, p: CheckedProposal, source: string): Promise<string | undefined> {
  const blocked = unresolved(app, p.id, p.server);
  const by = allowName(p.allowedBy!);
  if (blocked !== undefined) {
    const held = await app.store.proposals.insert({ serverId: p.id, config: p.server, source });
    out(`pending ${p.id}: ${held.id} (matches ${by}, but ${blocked}; then run: carte approve ${held.id})`);
    return undefined;
  }
  // Registered servers run sandboxed with no network (issue 42).
  const path = writeServer(app, p.id, withGrant(p.server, [], app.config.sandbox.default));
  await app.store.proposals.insert({
    serverId: p.id,
    config: p.server,
    source,
    status: 'approved',
    decidedBy: by,
    ...(typeof p.server.command === 'string' ? { grant: [] } : {}),
  });
  out(`approved ${p.id} (matches ${by}): added to ${path}`);
  return path;
}

async function holdPending(app: App, p: CheckedProposal, source: string): Promise<void> {
  const held = await app.store.proposals.insert({ serverId: p.id, config: p.server, source });
  const hosts = requestedNetwork(p.server);
  const asks = hosts.length > 0 ? `asks to reach ${hosts.join(', ')}; ` : '';
  out(
    `pending ${p.id}: ${held.id} (${asks}approve with: carte approve ${held.id}, or carte reject ${held.id})`,
  );
}

/** `registration.allow.packages "@modelcontextprotocol/*"`. */
function allowName(m: AllowMatch): string {
  return `registration.allow.${m.list} ${JSON.stringify(m.pattern)}`;
}

/** The server id is taken in the config, or already waits in another proposal. */
async function clashes(app: App, id: string): Promise<Problem[]> {
  return proposalClashes(await pendingOf(app.store), app.config, id, undefined, app.path);
}

/** Why the server could not load from the config file as it stands (an `${env:NAME}` not set), or undefined. */
function unresolved(app: App, id: string, server: Record<string, unknown>): string | undefined {
  return unresolvedVariables(id, server, {
    configPath: writablePath(app).path,
    env: process.env,
    dataDir: app.dataDir,
  });
}

/**
 * The config file approvals write to: the one in use; with the bundled demo, the user config
 * (resolveConfigPath), created by the first approval and read by the next command. `fresh`: this
 * write creates it, which is said once the write is done (noteCreated), never before a refusal.
 */
export function writablePath(app: App): { path: string; fresh: boolean } {
  return { path: app.path, fresh: app.source === 'demo' && !existsSync(app.path) };
}

/** Says on stderr that a write just created the user config. */
export function noteCreated(path: string): void {
  note(`no config file yet: created the user config ${path} (the bundled demo servers are not in it)`);
}

/** Adds the server to the config file (comments kept); with the bundled demo, creates the user config. */
function writeServer(app: App, id: string, server: Record<string, unknown>): string {
  const { path, fresh } = writablePath(app);
  addServerToFile(path, id, server as unknown as ServerInput);
  if (fresh) noteCreated(path);
  return path;
}

/** Discovers newly written servers with a fresh app over the config file they were written to. */
export async function discover(flags: GlobalFlags, ids: string[], path: string): Promise<void> {
  const app = await openApp({ ...flags, config: path });
  const failed: string[] = [];
  try {
    for (const id of ids) {
      const [report] = await syncWithProgress(app.gateway, { server: id });
      if (report?.status === 'failed') failed.push(`${id}: ${report.error ?? 'unknown error'}`);
      else out(`${id}: ${count(report?.toolCount ?? 0, 'tool')}`);
    }
  } finally {
    await app.close();
  }
  if (failed.length > 0)
    throw new CarteError('upstream_unavailable', `saved, but discovery failed for ${failed.join('; ')}`);
}

/** Who decides at the command line: `cli:<user>`. */
export function localDecider(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

function fileProblems(file: string, problems: Problem[]): CarteError {
  const lines = problems.map((p) => `  ${formatProblem(p)}`);
  return new CarteError(
    'bad_input',
    `${file} has ${count(problems.length, 'problem')}; nothing was proposed:\n${lines.join('\n')}`,
  );
}
