// The file `carte service install` writes so that the service manager keeps `carte serve --http`
// running for this user (docs/operations.md, "Keeping the daemon running"): a systemd user unit on
// Linux, a launchd agent on macOS. Pure: where the file goes, its text, the commands that start
// and stop it; the command (src/cli/commands/service.ts) reads, writes and runs.
import { posix } from 'node:path';
import type { UserPlace } from '../../config/index.js';
import { CarteError, quote } from '../../errors.js';
import type { CommandLine } from './snippet.js';

/** Every file `carte service install` writes carries this; `uninstall` removes only such a file. */
export const SERVICE_MARK = 'Written by carte service install';

/** The systemd unit's name and the launchd agent's label. */
export const SYSTEMD_UNIT = 'carte';
export const LAUNCHD_LABEL = 'dev.carte.serve';

export interface ServiceFile {
  kind: 'systemd' | 'launchd';
  path: string;
  /** Where the daemon's stderr goes (the start message has the menu's login link). */
  log: string;
  /** How to ask the service manager about it. */
  status: string;
}

/** A command `carte service` prints or runs; one that may fail (nothing to unload) does not stop the rest. */
export interface Step {
  argv: string[];
  mayFail?: boolean;
}

/**
 * The unit or agent for this user: `$XDG_CONFIG_HOME/systemd/user/carte.service` (a relative
 * XDG_CONFIG_HOME is ignored, as systemd does) or `~/Library/LaunchAgents/dev.carte.serve.plist`;
 * elsewhere an error saying what to do instead, with the command line to start.
 */
export function serviceFile(place: UserPlace, command: CommandLine): ServiceFile {
  if (place.platform === 'linux') {
    const xdg = place.env.XDG_CONFIG_HOME;
    const base = xdg && posix.isAbsolute(xdg) ? xdg : posix.join(place.home, '.config');
    return {
      kind: 'systemd',
      path: posix.join(base, 'systemd', 'user', `${SYSTEMD_UNIT}.service`),
      log: `journalctl --user -u ${SYSTEMD_UNIT}`,
      status: `systemctl --user status ${SYSTEMD_UNIT}`,
    };
  }
  if (place.platform === 'darwin')
    return {
      kind: 'launchd',
      path: posix.join(place.home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`),
      log: posix.join(place.home, 'Library', 'Logs', 'carte.log'),
      status: `launchctl list ${LAUNCHD_LABEL}`,
    };
  if (place.platform === 'win32')
    throw new CarteError(
      'bad_input',
      'carte service writes a systemd user unit (Linux) or a launchd agent (macOS), not a Windows service; on Windows stdio sessions do not relay to a daemon (no unix socket), so each client runs its own carte serve: start "carte serve --http" yourself (Task Scheduler can at logon) only if you want the HTTP face',
    );
  throw new CarteError(
    'bad_input',
    `carte service knows systemd (Linux) and launchd (macOS), not the service manager of ${place.platform}; have yours start this at login: ${formatCommand([command.command, ...command.args])}`,
  );
}

/** The file's text: the daemon's command line, PATH for the upstreams it starts (npx, uvx), restart on failure. */
export function renderService(file: ServiceFile, command: CommandLine, env: { PATH: string }): string {
  return file.kind === 'systemd' ? systemdUnit(command, env) : launchdAgent(file, command, env);
}

/** Whether `text` is a file `carte service install` wrote. */
export function writtenByCarte(text: string): boolean {
  return text.includes(SERVICE_MARK);
}

/** What makes the service manager read the file and start the daemon; `replaced` restarts one running the old file. */
export function startSteps(file: ServiceFile, replaced: boolean): Step[] {
  if (file.kind === 'systemd')
    return [
      { argv: ['systemctl', '--user', 'daemon-reload'] },
      { argv: ['systemctl', '--user', 'enable', '--now', SYSTEMD_UNIT] },
      ...(replaced ? [{ argv: ['systemctl', '--user', 'restart', SYSTEMD_UNIT] }] : []),
    ];
  return [
    ...(replaced ? [{ argv: ['launchctl', 'unload', file.path], mayFail: true }] : []),
    { argv: ['launchctl', 'load', file.path] },
  ];
}

/**
 * What stops the daemon and forgets it: run before the file is removed with `--stop`, so systemd
 * still finds the unit it disables; launchd forgets the agent by its label.
 */
export function stopSteps(file: ServiceFile): { before: Step[]; after: Step[] } {
  if (file.kind === 'systemd')
    return {
      before: [{ argv: ['systemctl', '--user', 'disable', '--now', SYSTEMD_UNIT] }],
      after: [{ argv: ['systemctl', '--user', 'daemon-reload'] }],
    };
  return { before: [{ argv: ['launchctl', 'remove', LAUNCHD_LABEL], mayFail: true }], after: [] };
}

/** The steps as one line for a shell: `a && b`, or `a; b` after a step that may fail. */
export function formatSteps(steps: readonly Step[]): string {
  return steps
    .map((s, i) => `${formatCommand(s.argv)}${i === steps.length - 1 ? '' : s.mayFail ? ';' : ' &&'}`)
    .join(' ');
}

/** A command line as a POSIX shell reads it: arguments with spaces or quotes single-quoted. */
export function formatCommand(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function systemdUnit(command: CommandLine, env: { PATH: string }): string {
  if (/["'\\]/.test(command.command))
    throw new CarteError(
      'bad_input',
      `systemd will not start a program whose path holds a quote or a backslash: ${quote(command.command, 200)}; run carte service install with a node installed elsewhere`,
    );
  return [
    `# ${SERVICE_MARK}; carte service uninstall removes it.`,
    '# It keeps carte serve --http running for this user: stdio sessions relay to it (docs/operations.md).',
    '[Unit]',
    'Description=Carte MCP gateway (stdio sessions relay to it)',
    '',
    '[Service]',
    `ExecStart=${[systemdWord(command.command, 'program'), ...command.args.map((a) => systemdWord(a, 'argument'))].join(' ')}`,
    `Environment=${systemdWord(`PATH=${env.PATH}`, 'environment')}`,
    'Restart=on-failure',
    'RestartSec=2',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

/**
 * One word of ExecStart or Environment (systemd.service(5), "Command lines"; systemd.unit(5),
 * "Specifiers"): `%` doubled, and in ExecStart's arguments `$` too (the program is not expanded),
 * so systemd expands nothing; quoted when it holds a space, a quote or a backslash.
 */
function systemdWord(word: string, place: 'program' | 'argument' | 'environment'): string {
  const specifiers = word.replace(/%/g, '%%');
  const escaped = place === 'argument' ? specifiers.replace(/\$/g, '$$$$') : specifiers;
  if (word !== '' && !/[\s"'\\;]/.test(word)) return escaped;
  return `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function launchdAgent(file: ServiceFile, command: CommandLine, env: { PATH: string }): string {
  const string = (s: string) => `<string>${xml(s)}</string>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    // An XML comment may not hold "--", hence no flags in it.
    `<!-- ${SERVICE_MARK}; carte service uninstall removes it. It keeps Carte serving HTTP for this user: stdio sessions relay to it (docs/operations.md). -->`,
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  ${string(LAUNCHD_LABEL)}`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...[command.command, ...command.args].map((a) => `    ${string(a)}`),
    '  </array>',
    '  <key>EnvironmentVariables</key>',
    '  <dict>',
    '    <key>PATH</key>',
    `    ${string(env.PATH)}`,
    '  </dict>',
    '  <key>RunAtLoad</key>',
    '  <true/>',
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key>',
    '    <false/>',
    '  </dict>',
    '  <key>StandardErrorPath</key>',
    `  ${string(file.log)}`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
