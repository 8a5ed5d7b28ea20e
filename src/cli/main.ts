import { cac, type CAC } from 'cac';
import { resolve } from 'node:path';
import { CarteError, ERROR_CODES, toCarteError } from '../errors.js';
import { repeatGlobalFlags } from '../gateway/index.js';
import { printActionHelp, type ActionHelps } from './shared/action-help.js';
import { keepNegativeValues, valueOptions } from './shared/negative-values.js';
import { AUDIT_ACTIONS, registerAudit } from './commands/audit.js';
import { registerCall } from './commands/call.js';
import { CONFIG_ACTIONS, registerConfig } from './commands/config.js';
import { registerDescribe } from './commands/describe.js';
import { registerDoctor } from './commands/doctor/doctor.js';
import { registerInstall, registerUninstall } from './commands/install.js';
import { registerRank } from './commands/rank.js';
import { registerCategorize } from './commands/categorize.js';
import { registerAdd, registerRemove } from './commands/edit.js';
import { registerApprovals, registerApprove, registerReject } from './commands/approvals.js';
import { registerRegister } from './commands/register.js';
import { registerMenu } from './commands/menu.js';
import { registerSearch } from './commands/search.js';
import { registerServe } from './commands/serve/serve.js';
import { registerServers } from './commands/servers.js';
import { registerService, SERVICE_ACTIONS } from './commands/service.js';
import { registerStats } from './commands/stats.js';
import { registerSync } from './commands/sync.js';
import { registerToken, TOKEN_ACTIONS } from './commands/token.js';
import { AUTH_ACTIONS, registerAuth } from './commands/auth.js';
import { registerStore, STORE_ACTIONS } from './commands/store.js';
import { registerTools } from './commands/tools.js';

/** The commands that take an action word, for `carte token create --help`. */
const ACTIONS: Readonly<Record<string, ActionHelps>> = {
  token: TOKEN_ACTIONS,
  auth: AUTH_ACTIONS,
  store: STORE_ACTIONS,
  audit: AUDIT_ACTIONS,
  config: CONFIG_ACTIONS,
  service: SERVICE_ACTIONS,
};

/** The CLI entry: parses argv, runs one command, and maps errors to exit codes in one place. */
export async function main(argv: string[]): Promise<void> {
  const cli = cac('carte');
  cli.option(
    '--config <file>',
    'Config file (default: $CARTE_CONFIG, ./carte.yaml, ./carte.json, the user config, the bundled demo)',
  );
  cli.option('--data-dir <dir>', 'Data directory (default: $CARTE_DATA_DIR or the user data dir)');
  cli.option('--log-level <level>', 'debug, info, warn, error or silent (default: $CARTE_LOG_LEVEL or warn)');
  for (const register of [
    registerServe,
    registerServers,
    registerSync,
    registerSearch,
    registerDescribe,
    registerCall,
    registerTools,
    registerMenu,
    registerStats,
    registerAudit,
    registerConfig,
    registerAdd,
    registerRemove,
    registerRegister,
    registerApprovals,
    registerApprove,
    registerReject,
    registerDoctor,
    registerInstall,
    registerUninstall,
    registerService,
    registerRank,
    registerCategorize,
    registerToken,
    registerAuth,
    registerStore,
  ]) {
    register(cli);
  }
  // cac prints a command's description only in the list of commands: put it under its usage too.
  cli.help((sections) => {
    const command = cli.matchedCommand;
    const at = sections.findIndex((s) => s.title === 'Usage');
    if (command?.description && at >= 0) sections.splice(at + 1, 0, { body: command.description });
    // cac shows `--no-sync` with the default of `sync`, "(default: true)", which reads backwards.
    for (const s of sections)
      if (s.title === 'Options') s.body = s.body.replace(/^(\s*--no-.*?) \(default: true\)/gm, '$1');
    return sections;
  });
  cli.version('0.1.0');
  // Help is printed below, once the command and its action are known (cac alone would print the
  // command's help and forget which command matched).
  cli.showHelpOnExit = false;
  try {
    cli.parse(['node', 'carte', ...keepNegativeValues(argv, valueOptions(cli))], { run: false });
    if (cli.options.help) return printHelp(cli);
    repeatGlobalFlags(globalFlagWords(cli.options));
    if (!cli.matchedCommand) {
      if (cli.args.length > 0)
        throw new CarteError('bad_input', `unknown command "${cli.args[0]}"; run carte --help`);
      if (!cli.options.help && !cli.options.version) cli.outputHelp();
      return;
    }
    await cli.runMatchedCommand();
  } catch (err) {
    process.exitCode = report(err);
  }
}

/** The `--config` and `--data-dir` this run was given, absolute: a command named in a message repeats them. */
function globalFlagWords(options: Record<string, unknown>): string[] {
  const words: string[] = [];
  if (typeof options.config === 'string') words.push('--config', resolve(options.config));
  if (typeof options.dataDir === 'string') words.push('--data-dir', resolve(options.dataDir));
  return words;
}

/** `--help` anywhere: the action's help, the command's, or the whole CLI's; an unknown command is an error. */
function printHelp(cli: CAC): void {
  const command = cli.matchedCommand;
  if (!command && cli.args.length > 0)
    throw new CarteError('bad_input', `unknown command "${cli.args[0]}"; run carte --help`);
  const actions = command ? ACTIONS[command.name] : undefined;
  const action = cli.args[0];
  if (command && actions && action !== undefined && printActionHelp(cli, command, actions, action)) return;
  cli.outputHelp();
}

function report(err: unknown): number {
  // cac throws plain Errors for usage mistakes (unknown option, missing argument).
  const e =
    err instanceof Error && err.name === 'CACError'
      ? new CarteError('bad_input', err.message)
      : toCarteError(err);
  process.stderr.write(`carte: ${e.operatorMessage}\n`);
  if (e.code === 'internal')
    process.stderr.write(`${String((e.cause as Error | undefined)?.stack ?? e.stack)}\n`);
  return ERROR_CODES[e.code].exit;
}
