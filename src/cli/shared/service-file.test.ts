import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  formatSteps,
  renderService,
  serviceFile,
  startSteps,
  stopSteps,
  writtenByCarte,
} from './service-file.js';
import { hasSystem, program } from '../../../test/system-needs.js';

const tmp = mkdtempSync(join(tmpdir(), 'carte-service-file-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const home = '/home/u';
const linux = { env: {}, platform: 'linux' as const, home };
const mac = { env: {}, platform: 'darwin' as const, home: '/Users/u' };
const command = { command: '/usr/bin/node', args: ['/app/bin/carte.js', 'serve', '--http'] };

describe('serviceFile', () => {
  it.each([
    ['Linux: the systemd user unit', linux, '/home/u/.config/systemd/user/carte.service'],
    [
      'Linux under XDG_CONFIG_HOME',
      { ...linux, env: { XDG_CONFIG_HOME: '/x' } },
      '/x/systemd/user/carte.service',
    ],
    [
      'a relative XDG_CONFIG_HOME is ignored',
      { ...linux, env: { XDG_CONFIG_HOME: 'x' } },
      '/home/u/.config/systemd/user/carte.service',
    ],
    ['macOS: the launchd agent', mac, '/Users/u/Library/LaunchAgents/dev.carte.serve.plist'],
  ])('%s', (_, place, path) => {
    expect(serviceFile(place, command).path).toBe(path);
  });

  it('refuses Windows, saying why there is nothing to keep running', () => {
    expect(() => serviceFile({ ...linux, platform: 'win32' }, command)).toThrow(
      'carte service writes a systemd user unit (Linux) or a launchd agent (macOS), not a Windows service; on Windows stdio sessions do not relay to a daemon (no unix socket), so each client runs its own carte serve: start "carte serve --http" yourself (Task Scheduler can at logon) only if you want the HTTP face',
    );
  });

  it('refuses another Unix, naming the command line to start at login', () => {
    expect(() => serviceFile({ ...linux, platform: 'freebsd' }, command)).toThrow(
      'carte service knows systemd (Linux) and launchd (macOS), not the service manager of freebsd; have yours start this at login: /usr/bin/node /app/bin/carte.js serve --http',
    );
  });
});

// Outside tools read what Carte writes: systemd's own verifier, libxml2's xmllint, Python's plistlib.
const hasSystemd = hasSystem(import.meta.url, program('systemd-analyze', 'systemd'));
const hasPlistTools = hasSystem(
  import.meta.url,
  program('xmllint', 'libxml2-utils'),
  program('python3', 'python3'),
);

describe('the systemd unit', () => {
  /** `systemd-analyze verify` of the unit in a user unit dir; it needs a runtime dir, not a bus. */
  function verify(text: string): { status: number | null; stderr: string } {
    const dir = mkdtempSync(join(tmp, 'unit-'));
    mkdirSync(join(dir, 'runtime'), { mode: 0o700 });
    writeFileSync(join(dir, 'carte.service'), text);
    const r = spawnSync('systemd-analyze', ['verify', '--user', join(dir, 'carte.service')], {
      encoding: 'utf8',
      env: { ...process.env, XDG_RUNTIME_DIR: join(dir, 'runtime') },
    });
    return { status: r.status, stderr: r.stderr };
  }

  it.skipIf(!hasSystemd)('passes systemd-analyze verify, and carries the mark and the command line', () => {
    const file = serviceFile(linux, command);
    const text = renderService(file, { ...command, command: process.execPath }, { PATH: '/usr/bin:/bin' });
    expect(verify(text)).toEqual({ status: 0, stderr: '' });
    expect(writtenByCarte(text)).toBe(true);
    expect(text).toContain(`\nExecStart=${process.execPath} /app/bin/carte.js serve --http\n`);
    expect(text).toContain('\nEnvironment=PATH=/usr/bin:/bin\n');
  });

  it.skipIf(!hasSystemd)(
    'quotes and escapes paths with a space, %, $ and quotes so systemd reads them back',
    () => {
      // systemd checks that ExecStart's program exists: it must read this path back exactly.
      const dir = join(tmp, 'node dir 50% $HOME');
      mkdirSync(dir);
      symlinkSync(process.execPath, join(dir, 'node'));
      const file = serviceFile(linux, command);
      const bin = '/app/"quoted" 5% $HOME/carte.js';
      const text = renderService(
        file,
        { command: join(dir, 'node'), args: [bin, 'serve'] },
        { PATH: '/a b:/c%d' },
      );
      expect(verify(text)).toEqual({ status: 0, stderr: '' });
      // The program is not expanded, its arguments are: `$` is doubled in these only.
      expect(text).toContain(
        `\nExecStart="${tmp}/node dir 50%% $HOME/node" "/app/\\"quoted\\" 5%% $$HOME/carte.js" serve\n`,
      );
      expect(text).toContain('\nEnvironment="PATH=/a b:/c%%d"\n');
      // The check is real: a program that is not there fails it.
      const missing = renderService(file, { ...command, command: '/nowhere/node' }, { PATH: '/bin' });
      expect(verify(missing).status).not.toBe(0);
    },
  );

  it('refuses a program path systemd will not run (a quote or a backslash), naming it', () => {
    const file = serviceFile(linux, command);
    expect(() => renderService(file, { ...command, command: `/opt/it's/node` }, { PATH: '/bin' })).toThrow(
      `systemd will not start a program whose path holds a quote or a backslash: "/opt/it's/node"; run carte service install with a node installed elsewhere`,
    );
  });

  it('start and stop steps, as printed', () => {
    const file = serviceFile(linux, command);
    expect(formatSteps(startSteps(file, false))).toBe(
      'systemctl --user daemon-reload && systemctl --user enable --now carte',
    );
    expect(formatSteps(startSteps(file, true))).toBe(
      'systemctl --user daemon-reload && systemctl --user enable --now carte && systemctl --user restart carte',
    );
    const { before, after } = stopSteps(file);
    expect(formatSteps([...before, ...after])).toBe(
      'systemctl --user disable --now carte && systemctl --user daemon-reload',
    );
  });
});

describe('the launchd agent', () => {
  const args = ['--max-semi-space-size=4', '/Users/u/carte & co/bin/carte.js', 'serve', '--http'];
  const file = serviceFile(mac, command);
  const text = renderService(file, { command: '/usr/local/bin/node', args }, { PATH: '/usr/local/bin:<x>' });

  it.skipIf(!hasPlistTools)(
    'is well-formed XML (xmllint) and a plist whose ProgramArguments are the command line (plistlib)',
    () => {
      const path = join(tmp, 'dev.carte.serve.plist');
      writeFileSync(path, text);
      const lint = spawnSync('xmllint', ['--noout', path], { encoding: 'utf8' });
      expect(lint.stderr).toBe('');
      expect(lint.status).toBe(0);
      const read = spawnSync(
        'python3',
        ['-c', 'import json, plistlib, sys; print(json.dumps(plistlib.load(open(sys.argv[1], "rb"))))', path],
        { encoding: 'utf8' },
      );
      expect(read.stderr).toBe('');
      expect(JSON.parse(read.stdout)).toEqual({
        Label: 'dev.carte.serve',
        ProgramArguments: ['/usr/local/bin/node', ...args],
        EnvironmentVariables: { PATH: '/usr/local/bin:<x>' },
        RunAtLoad: true,
        KeepAlive: { SuccessfulExit: false },
        StandardErrorPath: '/Users/u/Library/Logs/carte.log',
      });
      expect(writtenByCarte(text)).toBe(true);
    },
  );

  it('start and stop steps, as printed', () => {
    expect(formatSteps(startSteps(file, false))).toBe(
      'launchctl load /Users/u/Library/LaunchAgents/dev.carte.serve.plist',
    );
    expect(formatSteps(startSteps(file, true))).toBe(
      'launchctl unload /Users/u/Library/LaunchAgents/dev.carte.serve.plist; launchctl load /Users/u/Library/LaunchAgents/dev.carte.serve.plist',
    );
    expect(formatSteps(stopSteps(file).before)).toBe('launchctl remove dev.carte.serve');
  });
});

it('a file without the mark is not Carte’s', () => {
  expect(writtenByCarte('[Service]\nExecStart=/usr/bin/node x\n')).toBe(false);
});
