import type { CAC } from 'cac';
import { loadConfigFile, resolveConfigPath, resolveDataDir } from '../../config/index.js';
import { CarteError } from '../../errors.js';
import type { ActionHelps } from '../shared/action-help.js';
import { userConfigFile, userPlace, type GlobalFlags } from '../shared/app.js';
import { formatProblem, out } from '../shared/output.js';

/** `carte config check` is the one action. */
export const CONFIG_ACTIONS: ActionHelps = {
  check: {
    usage: '[--config <file>]',
    summary: 'Validate the config file and print every problem as path: message; exit 78 when there is one.',
    options: [],
  },
};

/** `carte config check`: print every problem of the config as `path: message`. */
export function registerConfig(cli: CAC): void {
  cli
    .command('config <action>', 'check: validate the config file and print every problem')
    .action((action: string, flags: GlobalFlags) => {
      if (!Object.hasOwn(CONFIG_ACTIONS, action))
        throw new CarteError('bad_input', `unknown config action "${action}"; the only action is "check"`);
      const env = process.env;
      const { path, source } = resolveConfigPath({
        ...(flags.config ? { flag: flags.config } : {}),
        ...userPlace(),
        cwd: process.cwd(),
      });
      if (source === 'demo')
        return out(
          `no config file found (--config, CARTE_CONFIG, ./carte.yaml, ./carte.json, ${userConfigFile()}); the bundled demo config is used`,
        );
      const dataDir = resolveDataDir({ ...(flags.dataDir ? { flag: flags.dataDir } : {}), ...userPlace() });
      const result = loadConfigFile(path, { env, dataDir });
      for (const p of result.errors) out(formatProblem(p));
      for (const p of result.warnings) out(`warning: ${formatProblem(p)}`);
      if (!result.ok) {
        throw new CarteError(
          'bad_config',
          `${path}: ${result.errors.length} problem${result.errors.length === 1 ? '' : 's'}`,
        );
      }
      const count = Object.keys(result.config?.servers ?? {}).length;
      out(`${path}: ok (${result.format} format, ${count} server${count === 1 ? '' : 's'})`);
    });
}
