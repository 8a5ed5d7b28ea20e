import type { CAC } from 'cac';
import { existsSync } from 'node:fs';
import {
  addServerToFile,
  launcherAdvice,
  removeServerFromFile,
  resolveConfigPath,
} from '../../config/index.js';
import { CarteError } from '../../errors.js';
import { openApp, userPlace, type GlobalFlags } from '../shared/app.js';
import { parsePairs } from '../shared/flags.js';
import { noteCreated } from './register.js';
import { count, note, out } from '../shared/output.js';
import { syncWithProgress } from '../shared/sync-progress.js';

interface AddFlags extends GlobalFlags {
  env?: string | string[];
  url?: string;
  header?: string | string[];
  transport?: string;
  '--'?: string[];
}

/**
 * The config file `add` edits: the one the next command will read (resolveConfigPath); with none
 * yet, the user config, created (`fresh`: said once it is written, not before a refusal).
 */
function editablePath(flags: GlobalFlags): { path: string; fresh: boolean } {
  const { path, source } = resolveConfigPath({
    ...(flags.config ? { flag: flags.config } : {}),
    ...userPlace(),
    cwd: process.cwd(),
  });
  return { path, fresh: source === 'demo' };
}

/** `carte add <id> -- <command> [args...]` or `carte add <id> --url URL`: save, then discover at once. */
export function registerAdd(cli: CAC): void {
  cli
    .command('add <id>', 'Add a server to the config file and discover its tools')
    .usage('add <id> [--env K=V ...] -- <command> [args...]  |  add <id> --url URL [--header K=V ...]')
    .option('--env <pair>', 'Environment variable for a stdio server (repeatable)')
    .option('--url <url>', 'Remote server URL')
    .option('--header <pair>', 'HTTP header for a remote server (repeatable)')
    .option('--transport <kind>', 'streamable-http or sse (default: try both)')
    .action(async (id: string, flags: AddFlags) => {
      const command = flags['--'] ?? [];
      if (flags.url && command.length)
        throw new CarteError('bad_input', 'give either --url or "-- <command>", not both');
      if (!flags.url && !command.length)
        throw new CarteError('bad_input', `server "${id}" needs a command after "--" or a --url`);
      if (flags.transport && flags.transport !== 'sse' && flags.transport !== 'streamable-http') {
        throw new CarteError(
          'bad_input',
          `--transport must be streamable-http or sse, not "${flags.transport}"`,
        );
      }
      const { path, fresh } = editablePath(flags);
      const server = flags.url
        ? {
            url: flags.url,
            headers: parsePairs('--header', flags.header),
            ...(flags.transport ? { transport: flags.transport as 'sse' | 'streamable-http' } : {}),
          }
        : { command: command[0]!, args: command.slice(1), env: parsePairs('--env', flags.env) };
      const secrets = addServerToFile(path, id, server);
      if (fresh) noteCreated(path);
      note(`added server "${id}" to ${path}`);
      if (secrets.length > 0)
        note(
          `${path} is now mode 0600: server "${id}" holds secrets written inline (${secrets.join('; ')}); \${env:NAME} keeps them out of the file`,
        );
      // Before discovery: under sandbox.default a launcher without its grant fails there.
      const advice = command[0] ? launcherAdvice(id, command[0]) : null;
      if (advice) note(advice);
      const app = await openApp({ ...flags, config: path });
      try {
        const [report] = await syncWithProgress(app.gateway, { server: id });
        if (report?.status === 'failed') {
          throw new CarteError(
            'upstream_unavailable',
            `server "${id}" is saved but its discovery failed: ${report.error ?? 'unknown error'}`,
          );
        }
        out(`${id}: ${count(report?.toolCount ?? 0, 'tool')}`);
      } finally {
        await app.close();
      }
    });
}

/** `carte remove <id>`: drop a server from the config file (its cached tools go with it). */
export function registerRemove(cli: CAC): void {
  cli
    .command('remove <id>', 'Remove a server from the config file')
    .action(async (id: string, flags: GlobalFlags) => {
      const { path, source } = resolveConfigPath({
        ...(flags.config ? { flag: flags.config } : {}),
        ...userPlace(),
        cwd: process.cwd(),
      });
      if (source === 'demo' || !existsSync(path))
        throw new CarteError('bad_input', 'there is no config file to remove a server from');
      if (!removeServerFromFile(path, id))
        throw new CarteError('unknown_server', `unknown server "${id}" in ${path}`);
      const app = await openApp({ ...flags, config: path }); // opening the gateway prunes the removed server's tools
      await app.close();
      out(`removed server "${id}" from ${path}`);
    });
}
