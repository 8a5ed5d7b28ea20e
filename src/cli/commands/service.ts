import type { CAC } from 'cac';
import { lstatSync, readlinkSync, rmSync } from 'node:fs';
// Built-in modules a command may never need are loaded when used (process.getBuiltinModule), not at
// start: docs/benchmarks.md, "CLI start".
import { dirname, join, resolve } from 'node:path';
import { writeAtomically } from '../../config/index.js';
import { CarteError, quote } from '../../errors.js';
import { runProgram } from '../../gateway/index.js';
import type { ActionHelps } from '../shared/action-help.js';
import {
  daemonSocketPath,
  dataDirOf,
  describeConfig,
  findConfig,
  userPlace,
  type GlobalFlags,
} from '../shared/app.js';
import { readOptional } from '../shared/install-files.js';
import { note, out } from '../shared/output.js';
import {
  formatCommand,
  formatSteps,
  renderService,
  serviceFile,
  startSteps,
  stopSteps,
  writtenByCarte,
  type ServiceFile,
  type Step,
} from '../shared/service-file.js';
import type { CommandLine } from '../shared/snippet.js';
import { daemonCommand } from './serve/serve.js';

/** The actions of `carte service` and what `carte service ACTION --help` prints. */
export const SERVICE_ACTIONS: ActionHelps = {
  install: {
    usage: '[--dry-run] [--force] [--start]',
    summary:
      'Write the systemd user unit (Linux) or launchd agent (macOS) that keeps carte serve --http running at login, for the config and data dir your clients use; print the commands that start it.',
    options: ['dryRun', 'force', 'start'],
  },
  uninstall: {
    usage: '[--dry-run] [--stop]',
    summary: 'Remove the unit or agent carte service install wrote; print the commands that stop it.',
    options: ['dryRun', 'stop'],
  },
  status: {
    usage: '',
    summary:
      'Say whether the unit or agent is there, whether Carte wrote it and it is up to date, and whether a Carte serves the data dir now.',
    options: [],
  },
};

interface ServiceFlags extends GlobalFlags {
  dryRun?: boolean;
  force?: boolean;
  start?: boolean;
  stop?: boolean;
}

/** What `carte service` works with: the file, the text install would write now, and for whom. */
interface Plan {
  file: ServiceFile;
  command: CommandLine;
  text: string;
  dataDir: string;
  /** The config file the daemon reads (undefined: the bundled demo), and how it was found, for people. */
  configPath: string | undefined;
  config: string;
}

/** `carte service install|uninstall|status`: the service manager keeps the daemon running (docs/operations.md). */
export function registerService(cli: CAC): void {
  cli
    .command(
      'service <action>',
      'install: keep carte serve --http running at login (systemd or launchd); uninstall; status',
    )
    .option('--dry-run', 'print what install or uninstall would change, and change nothing')
    .option('--force', 'install: replace a unit or agent that Carte did not write')
    .option('--start', 'install: also run the commands that start it')
    .option('--stop', 'uninstall: also run the commands that stop it')
    .action(async (action: string, flags: ServiceFlags) => {
      if (!Object.hasOwn(SERVICE_ACTIONS, action))
        throw new CarteError(
          'bad_input',
          `unknown service action ${quote(action)}; use install, uninstall or status`,
        );
      const plan = planService(flags);
      if (action === 'install') install(plan, flags);
      else if (action === 'uninstall') uninstall(plan, flags);
      else await status(plan);
    });
}

function planService(flags: GlobalFlags): Plan {
  const place = userPlace();
  const dataDir = resolve(dataDirOf(flags));
  const found = findConfig(flags);
  const command = daemonCommand({ ...found, dataDir });
  const file = serviceFile(place, command);
  // Upstreams started as `npx` or `uvx` need the PATH they have in this shell; a service manager's is bare.
  const text = renderService(file, command, { PATH: place.env.PATH || '/usr/local/bin:/usr/bin:/bin' });
  const configPath = found.source === 'demo' ? undefined : found.path;
  return { file, command, text, dataDir, configPath, config: describeConfig(found) };
}

function install(plan: Plan, flags: ServiceFlags): void {
  const { file } = plan;
  const existing = readOptional(file.path);
  if (existing !== undefined && !writtenByCarte(existing) && !flags.force)
    throw new CarteError(
      'bad_input',
      `${quote(file.path, 200)} exists and Carte did not write it; move it aside, or replace it with carte service install --force`,
    );
  const replaced = existing !== undefined;
  if (flags.dryRun) {
    out('dry run: nothing is written');
    out(`${replaced ? 'would replace' : 'would write'} ${file.path}:`);
    out(plan.text);
  } else if (existing === plan.text) {
    out(`${file.path} is already what carte service install writes; nothing to do`);
  } else {
    writeAtomically(file.path, plan.text, 0o644);
    out(`wrote ${file.path}: it runs ${formatCommand([plan.command.command, ...plan.command.args])}`);
  }
  out(`config: ${plan.config}; data: ${plan.dataDir}`);
  warnAboutEnvironment(plan);
  const steps = startSteps(file, replaced && existing !== plan.text);
  if (flags.start && !flags.dryRun) return runSteps(steps, `${file.path} is written`);
  out(`start it now and at every login: ${formatSteps(steps)}`);
  out(`its log: ${file.log}`);
}

function uninstall(plan: Plan, flags: ServiceFlags): void {
  const { file } = plan;
  const existing = readOptional(file.path);
  if (existing === undefined) return out(`no ${file.path}; nothing to remove`);
  if (!writtenByCarte(existing))
    throw new CarteError(
      'bad_input',
      `${quote(file.path, 200)} was not written by carte service install, so it is left as it is; remove it yourself if you mean to`,
    );
  const { before, after } = stopSteps(file);
  if (flags.dryRun) {
    out('dry run: nothing is removed');
    return out(`would remove ${file.path}; stop it with: ${formatSteps([...before, ...after])}`);
  }
  if (flags.stop) runSteps(before, `${file.path} is left in place`);
  rmSync(file.path, { force: true });
  const link = removeEnableLink(file);
  out(`removed ${file.path}${link ? ` and ${link}` : ''}`);
  if (flags.stop) return runSteps(after, `${file.path} is removed`);
  out(`if it runs, stop it: ${formatSteps(file.kind === 'systemd' ? stopAfterRemoval() : before)}`);
}

/**
 * systemd's `enable` link to the unit (`default.target.wants/carte.service`), which `disable`
 * removes; gone with the unit, it would only dangle. Returns its path when it was removed.
 */
function removeEnableLink(file: ServiceFile): string | undefined {
  if (file.kind !== 'systemd') return undefined;
  const link = join(dirname(file.path), 'default.target.wants', 'carte.service');
  try {
    if (!lstatSync(link).isSymbolicLink() || resolve(dirname(link), readlinkSync(link)) !== file.path)
      return undefined;
  } catch {
    return undefined;
  }
  rmSync(link);
  return link;
}

/** With the unit file gone, `stop` still reaches the loaded unit; `daemon-reload` then forgets it. */
function stopAfterRemoval(): Step[] {
  return [
    { argv: ['systemctl', '--user', 'stop', 'carte'] },
    { argv: ['systemctl', '--user', 'daemon-reload'] },
  ];
}

/** Runs each step; a failure (one that may not fail) stops with an error naming the command and what it said. */
function runSteps(steps: readonly Step[], state: string): void {
  for (const step of steps) {
    const command = formatCommand(step.argv);
    const outcome = runProgram(step.argv);
    if (outcome.ok || step.mayFail) {
      out(`ran ${command}${outcome.ok ? '' : ` (failed, which is fine here: ${outcome.detail})`}`);
      if (outcome.ok && outcome.detail) note(outcome.detail);
      continue;
    }
    const rest = formatSteps(steps.slice(steps.indexOf(step)));
    throw new CarteError(
      'upstream_unavailable',
      `${command} failed (${outcome.detail}); ${state}: fix that and run ${rest} yourself`,
    );
  }
}

async function status(plan: Plan): Promise<void> {
  const { file } = plan;
  const existing = readOptional(file.path);
  if (existing === undefined) out(`${file.path}: not there (carte service install writes it)`);
  else if (!writtenByCarte(existing)) out(`${file.path}: there, not written by Carte`);
  else if (existing === plan.text) out(`${file.path}: written by Carte, up to date`);
  else
    out(
      `${file.path}: written by Carte, differs from what carte service install would write now (node, Carte, PATH, the config or data dir moved); run carte service install`,
    );
  out(`config: ${plan.config}; data: ${plan.dataDir}`);
  const socket = daemonSocketPath(plan.dataDir);
  out(
    (await answers(socket))
      ? `a Carte serves ${plan.dataDir} now (${socket}): stdio sessions relay to it`
      : `no Carte answers on ${socket} now: stdio sessions run on their own`,
  );
  out(`ask the service manager: ${file.status}; its log: ${file.log}`);
}

/** Whether a process accepts connections on the unix socket (a stale file after a crash does not). */
function answers(socket: string): Promise<boolean> {
  return new Promise((done) => {
    const { connect } = process.getBuiltinModule('node:net');
    const conn = connect(socket);
    conn.once('connect', () => {
      conn.destroy();
      done(true);
    });
    conn.once('error', () => done(false));
  });
}

/** What a service manager does not pass on from this shell, which the daemon may need. */
function warnAboutEnvironment(plan: Plan): void {
  const text = plan.configPath === undefined ? undefined : readOptional(plan.configPath);
  const env = userPlace().env;
  const lost = ['CARTE_DATABASE_URL', 'CARTE_LOG_LEVEL', 'CARTE_CACHE_DIR'].filter((k) => env[k]);
  const where =
    plan.file.kind === 'systemd'
      ? 'add Environment=NAME=value lines with systemctl --user edit carte'
      : 'add them under EnvironmentVariables in the agent';
  const read = [...new Set([...(text ?? '').matchAll(/\$\{env:([^}]+)\}/g)].map((m) => `\${env:${m[1]}}`))];
  if (read.length > 0)
    out(
      `note: the config reads ${read.join(', ')}, which the service does not get from this shell: ${where}`,
    );
  if (lost.length > 0) out(`note: ${lost.join(', ')} set here will not reach the service: ${where}`);
}
