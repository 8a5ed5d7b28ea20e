// Slow: `carte service install` in a fake home, then the daemon started from the ExecStart line of
// the unit it wrote (a service manager's environment: HOME and the unit's PATH), and a client's
// stdio session started from the entry `carte install --client cursor` wrote: the session must
// relay to that daemon, which must serve it. This machine has no user systemd bus, so the unit's
// command line is run by hand; `systemd-analyze verify` reads the unit itself.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { hasSystem, program } from '../../system-needs.js';
import { ROOT, referenceEntry, tempDir } from '../helpers.js';

const BIN = join(ROOT, 'bin', 'carte.js');
const everything = { command: process.execPath, args: [referenceEntry('server-everything'), 'stdio'] };

interface Home {
  dir: string;
  env: Record<string, string>;
  cursor: string;
  userConfig: string;
  dataDir: string;
  unit: string;
}

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * A fake home holding Cursor's file, and the shell of its user: HOME, and with `xdg` a config
 * home and data dir away from the defaults, which the unit must then name as flags.
 */
function fakeHome(xdg: boolean): Home {
  const t = tempDir('carte-service-');
  cleanups.push(t.cleanup);
  const env: Record<string, string> = { HOME: t.dir };
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(XDG_|CARTE_)/.test(k) && !(k in env)) env[k] = v;
  // The dictionaries' gloss files, built once for every test (vitest.config.ts); no path Carte serves.
  if (process.env.CARTE_CACHE_DIR) env.CARTE_CACHE_DIR = process.env.CARTE_CACHE_DIR;
  const configHome = xdg ? join(t.dir, 'xdg-config') : join(t.dir, '.config');
  const dataDir = xdg ? join(t.dir, 'carte-data') : join(t.dir, '.local', 'share', 'carte');
  if (xdg) Object.assign(env, { XDG_CONFIG_HOME: configHome, CARTE_DATA_DIR: dataDir });
  const cursor = join(t.dir, '.cursor', 'mcp.json');
  mkdirSync(dirname(cursor), { recursive: true });
  writeFileSync(cursor, `${JSON.stringify({ mcpServers: { everything } }, null, 2)}\n`);
  return {
    dir: t.dir,
    env,
    cursor,
    userConfig: join(configHome, 'carte', 'carte.yaml'),
    dataDir,
    unit: join(configHome, 'systemd', 'user', 'carte.service'),
  };
}

function carte(home: Home, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: home.dir, env: home.env, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** One line of a unit, split into words as systemd does for what Carte writes: quotes, `\`, `%%`, `$$`. */
function unitWords(unit: string, key: string): string[] {
  const line = unit.split('\n').find((l) => l.startsWith(`${key}=`));
  if (line === undefined) throw new Error(`no ${key}= in the unit`);
  const words = [...line.slice(key.length + 1).matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)];
  return words.map((m) => (m[1] ?? m[2]!).replace(/\\(.)/g, '$1').replace(/%%/g, '%').replace(/\$\$/g, '$'));
}

/** The processes whose parent is `pid`, by command line (Linux /proc). */
function childrenOf(pid: number): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function waitFor(check: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// systemd's verifier reads the unit Carte wrote (no bus needed).
const hasSystemd =
  process.platform !== 'linux' || hasSystem(import.meta.url, program('systemd-analyze', 'systemd'));

describe.runIf(process.platform === 'linux' && hasSystemd).each([
  ['the default places', false],
  ['a custom XDG_CONFIG_HOME and CARTE_DATA_DIR', true],
])('carte service install, %s', (_, xdg) => {
  it('writes a unit whose ExecStart serves the data dir the cursor entry relays to', async () => {
    const home = fakeHome(xdg);
    expect((await carte(home, ['install', '--client', 'cursor'])).code).toBe(0);
    const entry = (
      JSON.parse(readFileSync(home.cursor, 'utf8')) as {
        mcpServers: { carte: { command: string; args: string[] } };
      }
    ).mcpServers.carte;
    // A free port instead of 7777: the config chooses it, so the unit's command line runs as written.
    appendFileSync(home.userConfig, 'http:\n  port: 0\n');

    const dry = await carte(home, ['service', 'install', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`dry run: nothing is written\nwould write ${home.unit}:\n`);
    expect(existsSync(home.unit)).toBe(false);

    const done = await carte(home, ['service', 'install']);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`wrote ${home.unit}: it runs `);
    expect(done.stdout).toContain(
      'start it now and at every login: systemctl --user daemon-reload && systemctl --user enable --now carte\n',
    );
    const unit = readFileSync(home.unit, 'utf8');
    expect(dry.stdout).toContain(unit);

    // The entry's command line with --http after serve: the same node, flags, bin, config and data dir.
    const execStart = unitWords(unit, 'ExecStart');
    const at = entry.args.indexOf('serve') + 1;
    expect(execStart).toEqual([entry.command, ...entry.args.slice(0, at), '--http', ...entry.args.slice(at)]);
    expect(entry.args.includes('--data-dir')).toBe(xdg);
    const verify = spawnSync('systemd-analyze', ['verify', '--user', home.unit], {
      encoding: 'utf8',
      env: { ...process.env, XDG_RUNTIME_DIR: mkdirRuntime(home) },
    });
    expect(verify.stderr).toBe('');
    expect(verify.status).toBe(0);

    const daemon = startDaemon(home, execStart, unitWords(unit, 'Environment')[0]!);
    await waitFor(() => daemon.stderr().includes('Serving HTTP now'), 60_000, daemon.stderr);

    const status = await carte(home, ['service', 'status']);
    expect(status.stdout).toContain(`${home.unit}: written by Carte, up to date\n`);
    expect(status.stdout).toContain(
      `a Carte serves ${home.dataDir} now (${join(home.dataDir, 'carte.sock')})`,
    );

    const transport = new StdioClientTransport({ ...entry, env: home.env, cwd: home.dir, stderr: 'pipe' });
    let relayStderr = '';
    transport.stderr?.on('data', (d: Buffer) => (relayStderr += d.toString()));
    const client = new Client({ name: 'cursor', version: '0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const echo = await client.callTool({
      name: 'call_tool',
      arguments: { key: 'everything/echo', arguments: { message: 'through the service' } },
    });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: through the service' }]);
    expect(relayStderr).toContain(`Relaying this session to the Carte serving ${home.dataDir}`);
    // The daemon served it: the upstream is its child; the relay started none.
    expect(childrenOf(daemon.child.pid!).some((c) => c.includes('server-everything'))).toBe(true);
    expect(childrenOf(transport.pid!)).toEqual([]);

    const gone = await carte(home, ['service', 'uninstall']);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain(`removed ${home.unit}\n`);
    expect(existsSync(home.unit)).toBe(false);
  });
});

describe.runIf(process.platform === 'linux')('carte service, the edges', () => {
  it("names the config's ${env:NAME} variables the service will not get", async () => {
    const home = fakeHome(false);
    mkdirSync(dirname(home.userConfig), { recursive: true });
    writeFileSync(
      home.userConfig,
      'servers:\n  a: { url: "https://a.invalid/mcp", headers: { A: "${env:TOKEN_A}", B: "${env:TOKEN_B} ${env:TOKEN_A}" } }\n',
    );
    const r = await carte(home, ['service', 'install', '--dry-run']);
    expect(r.stdout).toContain(
      'note: the config reads ${env:TOKEN_A}, ${env:TOKEN_B}, which the service does not get from this shell: add Environment=NAME=value lines with systemctl --user edit carte\n',
    );
  });

  it('refuses to replace or remove a unit Carte did not write; --force replaces it', async () => {
    const home = fakeHome(false);
    mkdirSync(dirname(home.unit), { recursive: true });
    writeFileSync(home.unit, '[Service]\nExecStart=/usr/bin/true\n');
    const install = await carte(home, ['service', 'install']);
    expect(install.code).toBe(64);
    expect(install.stderr).toBe(
      `carte: "${home.unit}" exists and Carte did not write it; move it aside, or replace it with carte service install --force\n`,
    );
    const uninstall = await carte(home, ['service', 'uninstall']);
    expect(uninstall.code).toBe(64);
    expect(uninstall.stderr).toBe(
      `carte: "${home.unit}" was not written by carte service install, so it is left as it is; remove it yourself if you mean to\n`,
    );
    expect(readFileSync(home.unit, 'utf8')).toBe('[Service]\nExecStart=/usr/bin/true\n');
    const forced = await carte(home, ['service', 'install', '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(home.unit, 'utf8')).toContain('# Written by carte service install');
  });

  it('--start runs systemctl and reports its failure with no user bus, the unit written', async () => {
    const home = fakeHome(false);
    // No bus to reach, whatever this machine has: the test never enables a unit of the real user.
    const runtime = mkdirRuntime(home);
    home.env.XDG_RUNTIME_DIR = runtime;
    home.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${join(runtime, 'no-bus')}`;
    const r = await carte(home, ['service', 'install', '--start']);
    expect(existsSync(home.unit)).toBe(true);
    expect(r.code).toBe(69);
    const [said, rest] = r.stderr.split(' failed (');
    expect(said).toBe('carte: systemctl --user daemon-reload');
    expect(rest).toMatch(/^exit 1: Failed to connect to bus: .+\); /);
    expect(rest!.slice(rest!.indexOf('); ') + 3)).toBe(
      `${home.unit} is written: fix that and run systemctl --user daemon-reload && systemctl --user enable --now carte yourself\n`,
    );
  });
});

function mkdirRuntime(home: Home): string {
  const dir = join(home.dir, 'runtime');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** The unit's command line as a service manager runs it: the home as working dir, HOME and the unit's PATH. */
function startDaemon(
  home: Home,
  argv: string[],
  environment: string,
): { child: ChildProcess; stderr: () => string } {
  const [name, value] = [
    environment.slice(0, environment.indexOf('=')),
    environment.slice(environment.indexOf('=') + 1),
  ];
  expect(name).toBe('PATH');
  const env: Record<string, string> = { HOME: home.dir, PATH: value };
  if (home.env.CARTE_CACHE_DIR) env.CARTE_CACHE_DIR = home.env.CARTE_CACHE_DIR;
  const child = spawn(argv[0]!, argv.slice(1), { cwd: home.dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  });
  return { child, stderr: () => stderr };
}
