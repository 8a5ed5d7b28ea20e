import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, FIXTURES, tempDir } from '../helpers.js';

// Slow: runs the built CLI (`npm test` builds first) as a real process, with a home, an
// XDG_CONFIG_HOME and working directories of its own: `carte add` with no config file writes
// the user config, which the next command reads from any directory.
const BIN = join(ROOT, 'bin', 'carte.js');
const tmp = tempDir('carte-add-user-');
afterAll(() => tmp.cleanup());
const xdg = join(tmp.dir, 'xdg');
const userConfig = join(xdg, 'carte', 'carte.yaml');
const SECRET = 'sk-live-0123456789abcdefghijklmnopqrstuv';

function carte(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  mkdirSync(cwd, { recursive: true });
  const env = { ...process.env, HOME: tmp.dir, XDG_CONFIG_HOME: xdg, CARTE_CONFIG: '' };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, '--data-dir', join(tmp.dir, 'data'), ...args],
      { cwd, env, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const paged = ['--', process.execPath, join(FIXTURES, 'paginated.mjs')];

describe('carte add with no config file', () => {
  it('says nothing of creating the user config when the add is refused, and creates none', async () => {
    const r = await carte(['add', 'Bad Id', ...paged], join(tmp.dir, 'project'));
    expect(r.code).toBe(64);
    expect(r.stderr).toBe(
      'carte: invalid server id "Bad Id"; use lower-case letters, digits, "-" and "_", starting with a letter or digit, e.g. "bad-id"\n',
    );
    expect(existsSync(userConfig)).toBe(false);
  });

  it('creates the user config, says where, and the next command reads it from another directory', async () => {
    const here = join(tmp.dir, 'project');
    const r = await carte(['add', 'paged', ...paged], here);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `no config file yet: created the user config ${userConfig} (the bundled demo servers are not in it)`,
    );
    expect(r.stderr).toContain(`added server "paged" to ${userConfig}`);
    expect(existsSync(join(here, 'carte.yaml'))).toBe(false);
    expect(readFileSync(userConfig, 'utf8')).toContain('paged:');

    const elsewhere = await carte(['servers', '--json'], join(tmp.dir, 'elsewhere'));
    expect(elsewhere.code).toBe(0);
    expect(elsewhere.stdout).toContain('"paged"');
  });

  it('makes the user config 0600 once a server holds a secret written inline, naming where, never the secret', async () => {
    const r = await carte(['add', 'keyed', '--env', `API_KEY=${SECRET}`, ...paged], join(tmp.dir, 'project'));
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('created');
    expect(r.stderr).toMatch(
      new RegExp(
        `^${userConfig} is now mode 0600: server "keyed" holds secrets written inline \\(env\\.API_KEY `,
        'm',
      ),
    );
    expect(r.stderr + r.stdout).not.toContain(SECRET);
    expect(statSync(userConfig).mode & 0o777).toBe(0o600);
  });

  it('writes to ./carte.yaml when the working directory has one, as the reading order reads it', async () => {
    const here = join(tmp.dir, 'with-own');
    mkdirSync(here, { recursive: true });
    writeFileSync(join(here, 'carte.yaml'), '# own\nservers: {}\n');
    const before = readFileSync(userConfig, 'utf8');
    const r = await carte(['add', 'local', ...paged], here);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`added server "local" to ${join(here, 'carte.yaml')}`);
    expect(readFileSync(join(here, 'carte.yaml'), 'utf8')).toMatch(/^# own\n[\s\S]*local:/);
    expect(readFileSync(userConfig, 'utf8')).toBe(before);
  });
});

// A launcher named npx, uvx or docker that runs the fixture: no registry or daemon needed offline.
function fakeLauncher(name: string): string {
  const bin = join(tmp.dir, 'launchers', name);
  mkdirSync(join(bin, '..'), { recursive: true });
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${join(FIXTURES, 'paginated.mjs')}"\n`);
  chmodSync(bin, 0o755);
  return bin;
}

describe('carte add with a package launcher (issue 42)', () => {
  it.each([
    [
      'npx',
      'server "via-npx" starts through npx, which needs npm\'s registry and cache: sandboxed, it needs sandbox: {network: [registry.npmjs.org], allowWrite: [~/.npm]} (docs/sandbox.md)',
    ],
    [
      'uvx',
      'server "via-uvx" starts through uvx, which needs PyPI and uv\'s cache: sandboxed, it needs sandbox: {network: [pypi.org, files.pythonhosted.org], allowWrite: [~/.cache/uv]} (docs/sandbox.md)',
    ],
    [
      'docker',
      'server "via-docker" starts through docker, whose socket is a way out of any sandbox: keep it "sandbox: false" and rely on Docker\'s own isolation, knowingly (docs/sandbox.md)',
    ],
  ])('prints the grant %s needs, before discovery', async (launcher, advice) => {
    const r = await carte(
      ['add', `via-${launcher}`, '--', fakeLauncher(launcher), '-y', 'some-mcp-server'],
      join(tmp.dir, 'project'),
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${advice}\n`);
    expect(r.stdout).toBe(`via-${launcher}: 7 tools\n`);
  });

  it('prints no advice for another command', async () => {
    const r = await carte(['add', 'plain', ...paged], join(tmp.dir, 'project'));
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('starts through');
  });
});
