import type { CAC, Command } from 'cac';

/** One action of a command that takes actions (`carte token create`): what `--help` after it prints. */
export interface ActionHelp {
  /** The usage after `carte <command> <action>`, e.g. `--project <id> [--name <name>]`. */
  usage: string;
  summary: string;
  /** The command's options this action reads, by long name (`project`); global options always show. */
  options: readonly string[];
  /** Descriptions that differ for this action, by long name. */
  describe?: Readonly<Record<string, string>>;
}

/** A command's actions by name; the command checks its action against the same keys. */
export type ActionHelps = Readonly<Record<string, ActionHelp>>;

/**
 * `carte token create --help`: prints that action's usage, summary and options (without the
 * `create: ` prefix their shared descriptions carry) and returns true; false when `action` is not
 * one of `actions`, so the caller prints the whole command's help instead.
 */
export function printActionHelp(cli: CAC, command: Command, actions: ActionHelps, action: string): boolean {
  const help = Object.hasOwn(actions, action) ? actions[action] : undefined;
  if (help === undefined) return false;
  const own = command.options.filter((o) => o.names.some((n) => help.options.includes(n)));
  const rows = [...own, ...cli.globalCommand.options].map((o) => [
    o.rawName,
    help.describe?.[o.name] ?? o.description.replace(new RegExp(`^${action}: `), ''),
  ]);
  const width = Math.max(...rows.map(([name]) => name!.length));
  const lines = [
    `${cli.name}/${cli.globalCommand.versionNumber ?? ''}`,
    '',
    'Usage:',
    `  $ ${cli.name} ${command.name} ${action}${help.usage ? ` ${help.usage}` : ''}`,
    '',
    help.summary,
    '',
    'Options:',
    ...rows.map(([name, description]) => `  ${name!.padEnd(width)}  ${description}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return true;
}
