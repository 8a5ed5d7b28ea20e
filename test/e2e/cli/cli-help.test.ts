import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';

// Slow: runs the built CLI (`npm test` builds first). `--help` after an action prints that action's
// help and exits 0 (issue 25, item 5); it used to print the command's help, then fail with
// `unknown command "create"`.
const BIN = join(ROOT, 'bin', 'carte.js');

function carte(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('--help after an action', () => {
  it.each([
    [
      'token',
      'create',
      ['--project <id>', '--name <name>', '--expires <duration>', '--scope <scope>', '--rate <rate>'],
    ],
    ['token', 'list', ['--json']],
    ['token', 'revoke', []],
    [
      'audit',
      'export',
      [
        '--since <duration>',
        '--project <id>',
        '--tool <key>',
        '--subject <sub>',
        '--outcome <outcome>',
        '--limit <n>',
      ],
    ],
    ['config', 'check', []],
    ['service', 'install', ['--dry-run', '--force', '--start']],
    ['service', 'uninstall', ['--dry-run', '--stop']],
    ['service', 'status', []],
  ])('carte %s %s --help prints that action and exits 0', async (command, action, options) => {
    const r = await carte(command, action, '--help');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`$ carte ${command} ${action}`);
    const listed = r.stdout
      .split('Options:\n')[1]!
      .split('\n')
      .map((l) => l.trim().split(/\s{2,}/)[0])
      .filter((o) => o && !['--config <file>', '--data-dir <dir>', '--log-level <level>'].includes(o))
      .filter((o) => o !== '-h, --help' && o !== '-v, --version');
    expect(listed).toEqual(options);
    // Each option reads as this action's, without the "create: " prefix the command's help shares.
    expect(r.stdout).not.toContain(`${action}: `);
  });

  it('-h works the same, after global flags', async () => {
    const r = await carte('--log-level', 'silent', 'token', 'create', '-h');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('$ carte token create --project <id>');
  });

  it.each([
    ['serve', 'Serve the gateway over MCP on stdio, or over HTTP with --http'],
    ['config', 'check: validate the config file and print every problem'],
    ['service', 'install: keep carte serve --http running at login (systemd or launchd); uninstall; status'],
  ])('carte %s --help says what the command does, under its usage', async (command, description) => {
    const r = await carte(command, '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage:\n  $ carte ${command}`);
    expect(r.stdout.split('\n\n')[2]).toBe(description);
  });

  it('--no-sync does not claim "(default: true)"', async () => {
    const r = await carte('serve', '--help');
    expect(r.stdout).toMatch(/^ {2}--no-sync +Skip the start-up sync of servers never discovered *$/m);
  });

  it('a command with an unknown action prints the command help', async () => {
    const r = await carte('token', 'frobnicate', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('$ carte token <action> [id]');
  });

  it('an unknown command is still an error, also with --help', async () => {
    const r = await carte('frobnicate', '--help');
    expect(r.code).toBe(64);
    expect(r.stderr.trim()).toBe('carte: unknown command "frobnicate"; run carte --help');
  });
});
