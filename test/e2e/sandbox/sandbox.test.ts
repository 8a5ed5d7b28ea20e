import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { parseConfigText } from '../../../src/config/index.js';
import { LOCAL_CALLER as ME, serversFromConfig } from '../../../src/gateway/index.js';
import { FIXTURES, harness, type Harness } from '../helpers.js';

// Slow: spawns test/fixtures/hostile.mjs in bubblewrap behind a real gateway (issue 42).
const hasBwrap = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', 'true']).status === 0;
if (!hasBwrap) {
  if (process.env.CI) throw new Error('bwrap is missing or cannot create namespaces: install bubblewrap');
  process.stderr.write(
    '*** SKIPPED test/e2e/sandbox/sandbox.test.ts: bwrap is missing (apt-get install bubblewrap) ***\n',
  );
}
// Limits need cgroup v1 as root here (or a systemd user scope); the fork and memory cases check it.
// Under CI they must run: unwritable cgroups fail the file rather than skip the cases.
const canLimit =
  spawnSync('sh', ['-c', 'test -w /sys/fs/cgroup/memory/cgroup.procs -a -w /sys/fs/cgroup/pids/cgroup.procs'])
    .status === 0;
if (hasBwrap && !canLimit) {
  if (process.env.CI)
    throw new Error('cgroup v1 memory and pids are not writable: run the sandbox tests as root (issue 42)');
  process.stderr.write(
    '*** SKIPPED the limit cases of test/e2e/sandbox/sandbox.test.ts: cgroups are not writable (run as root on cgroup v1) ***\n',
  );
}

const MARKER = 'CARTE_SANDBOX_TEST_MARKER';
let root: string;
let home: string;
let dataDir: string;
let h: Harness;
let web: Server;
let webPort: number;
let otherPort: number;
let other: Server;
/** A process outside the sandbox whose environment holds the marker (set at run time, process.env
 * changes no /proc/<pid>/environ; a child started with it shows it there, as Carte's own would). */
let holder: ChildProcess;

const call = async (tool: string, args: Record<string, unknown>, server = 'hostile'): Promise<string> => {
  const r = await h.gateway.callTool(ME, `${server}/${tool}`, args);
  return (r.content as { text: string }[])[0]!.text;
};

let unixServer: NetServer | undefined;
let runSocket: string | undefined;

/** A unix socket server at `path`, or undefined where it cannot be made (no root for /run). */
async function listenUnix(path: string): Promise<string | undefined> {
  const s = createNetServer((c) => c.end());
  const ok = await new Promise<boolean>((done) => {
    s.once('error', () => done(false));
    s.listen(path, () => done(true));
  });
  if (ok) unixServer = s;
  return ok ? path : undefined;
}

async function listen(body: string): Promise<[Server, number]> {
  const s = createServer((_req, res) => res.end(body));
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  return [s, (s.address() as { port: number }).port];
}

describe.runIf(hasBwrap)('sandbox: a hostile stdio server under sandbox: true', () => {
  beforeAll(async () => {
    // Not under /tmp: the sandbox's private /tmp would hide it anyway, and the point is denyRead.
    root = mkdtempSync('/var/tmp/carte-sandbox-');
    home = join(root, 'home');
    dataDir = join(root, 'data');
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PLANTED-PRIVATE-KEY');
    mkdirSync(join(root, 'outside'));
    [web, webPort] = await listen('granted-web');
    [other, otherPort] = await listen('other-web');
    runSocket = await listenUnix(`/run/carte-sandbox-test-${process.pid}.sock`);
    const text = [
      'servers:',
      `  hostile: {command: ${process.execPath}, args: [${join(FIXTURES, 'hostile.mjs')}], sandbox: true}`,
      `  granted: {command: ${process.execPath}, args: [${join(FIXTURES, 'hostile.mjs')}], sandbox: {network: ["localhost:${webPort}"]}}`,
      `  homewriter: {command: ${process.execPath}, args: [${join(FIXTURES, 'hostile.mjs')}], sandbox: {allowWrite: ["~/"]}}`,
      // The control: the same server unconfined, to show the escapes the others are denied.
      `  exposed: {command: ${process.execPath}, args: [${join(FIXTURES, 'hostile.mjs')}], sandbox: false}`,
      `  limited: {command: ${process.execPath}, args: [${join(FIXTURES, 'hostile.mjs')}], sandbox: {memoryMb: 256, maxProcesses: 32}}`,
    ].join('\n');
    writeFileSync(join(root, 'carte.yaml'), text);
    const loaded = parseConfigText(text, { path: join(root, 'carte.yaml'), env: { HOME: home }, dataDir });
    expect(loaded.errors).toEqual([]);
    const servers = serversFromConfig(loaded.config!).filter((s) => canLimit || s.id !== 'limited');
    mkdirSync(dataDir, { recursive: true });
    process.env[MARKER] = 'visible-to-carte-only';
    holder = spawn('sleep', ['600'], { env: { ...process.env }, stdio: 'ignore' });
    h = await harness(servers, dataDir);
    await h.gateway.sync(ME);
  }, 60_000);

  afterAll(async () => {
    delete process.env[MARKER];
    holder?.kill();
    await h?.close();
    web?.close();
    other?.close();
    unixServer?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('cannot read a planted ~/.ssh key or Carte store', async () => {
    expect(readFileSync(join(home, '.ssh', 'id_ed25519'), 'utf8')).toBe('PLANTED-PRIVATE-KEY');
    expect(await call('read_file', { path: join(home, '.ssh', 'id_ed25519') })).toBe('blocked: ENOENT');
    expect(await call('read_file', { path: join(dataDir, 'carte.db') })).toBe('blocked: ENOENT');
  });

  it('allowWrite: [~/] writes the home but still cannot read ~/.ssh below it', async () => {
    expect(await call('write_file', { path: join(home, 'notes') }, 'homewriter')).toBe('ok: wrote');
    expect(await call('read_file', { path: join(home, '.ssh', 'id_ed25519') }, 'homewriter')).toBe(
      'blocked: ENOENT',
    );
  });

  it('cannot read its config file (outside ~/.config/carte)', async () => {
    expect(await call('read_file', { path: join(root, 'carte.yaml') }, 'exposed')).toMatch(/^ok: servers:/);
    // A hidden file is covered by /dev/null, bound without device access: opening it fails.
    expect(await call('read_file', { path: join(root, 'carte.yaml') })).toBe('blocked: EACCES');
  });

  it('writes only to its state dir and its private /tmp', async () => {
    expect(await call('write_file', { path: join(root, 'outside', 'x') })).toBe('blocked: EROFS');
    expect(await call('write_file', { path: join(home, 'x') })).toBe('blocked: EROFS');
    expect(await call('write_file', { path: join(dataDir, 'servers', 'hostile', 'state') })).toBe(
      'ok: wrote',
    );
    expect(readFileSync(join(dataDir, 'servers', 'hostile', 'state'), 'utf8')).toBe('pwned');
    expect(await call('write_file', { path: '/tmp/x' })).toBe('ok: wrote');
    // Another server's state dir is hidden with the rest of the data dir.
    expect(await call('read_file', { path: join(dataDir, 'servers', 'hostile', 'state') }, 'granted')).toBe(
      'blocked: ENOENT',
    );
  });

  it('reaches neither PostgreSQL, a loopback web server nor the outside', async () => {
    expect(await call('connect', { host: '127.0.0.1', port: 5432 })).toBe('blocked: ECONNREFUSED');
    expect(await call('connect', { host: '127.0.0.1', port: webPort })).toBe('blocked: ECONNREFUSED');
    expect(await call('fetch', { url: `http://127.0.0.1:${webPort}/` })).toBe('blocked: ECONNREFUSED');
    expect(await call('fetch', { url: 'http://example.com/' })).toMatch(/^blocked: (ENOTFOUND|EAI_AGAIN)$/);
  });

  it("reaches no unix socket of the host: PostgreSQL's, the docker daemon's, your session's", async () => {
    // PostgreSQL's socket where Debian puts it (CI runs PostgreSQL), else one of our own in /run.
    const pg = '/var/run/postgresql/.s.PGSQL.5432';
    const path = existsSync(pg) ? pg : runSocket;
    if (!path) {
      if (process.env.CI)
        throw new Error(`no ${pg} and /run is not writable: the unix-socket case cannot run`);
      process.stderr.write(
        '*** SKIPPED the unix-socket case of sandbox.test.ts: no PostgreSQL socket, /run not writable ***\n',
      );
      return;
    }
    expect(await call('connect', { path }, 'exposed')).toBe('ok: connected');
    expect(await call('connect', { path })).toBe('blocked: ENOENT');
    expect(await call('connect', { path }, 'granted')).toBe('blocked: ENOENT');
  });

  it("does not see Carte's environment", async () => {
    expect(await call('find_env', { marker: MARKER })).toBe('not found');
    // Unsandboxed, the same scan finds the marker in Carte's /proc/<pid>/environ: the test can fail.
    expect(await call('find_env', { marker: MARKER }, 'exposed')).toMatch(/^found in \d+/);
    expect(await call('read_file', { path: join(home, '.ssh', 'id_ed25519') }, 'exposed')).toBe(
      'ok: PLANTED-PRIVATE-KEY',
    );
  });

  it('network: ["localhost:PORT"] lets exactly that port through', async () => {
    expect(await call('connect', { host: '127.0.0.1', port: webPort }, 'granted')).toBe('ok: connected');
    expect(await call('fetch', { url: `http://127.0.0.1:${webPort}/` }, 'granted')).toBe(
      'ok: 200 granted-web',
    );
    expect(await call('fetch', { url: `http://localhost:${webPort}/` }, 'granted')).toBe(
      'ok: 200 granted-web',
    );
    expect(await call('connect', { host: '127.0.0.1', port: otherPort }, 'granted')).toBe(
      'blocked: ECONNREFUSED',
    );
    expect(await call('fetch', { url: `http://127.0.0.1:${otherPort}/` }, 'granted')).toMatch(/^blocked: /);
    expect(await call('connect', { host: '127.0.0.1', port: 5432 }, 'granted')).toBe('blocked: ECONNREFUSED');
  });

  it.runIf(canLimit)('maxProcesses: 32 holds a 200-process fork storm to the limit', async () => {
    const out = await call('fork_storm', { count: 200 }, 'limited');
    const started = Number(/^started (\d+) of 200$/.exec(out)?.[1]);
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThan(32);
  });

  it.runIf(canLimit)(
    'memoryMb: 256 stops a 1 GB allocation with a clear error, then serves again',
    async () => {
      await expect(h.gateway.callTool(ME, 'limited/allocate', { mb: 1024 })).rejects.toMatchObject({
        code: 'upstream_unavailable',
        message:
          'server "limited" was stopped at its memory limit (sandbox.memoryMb: 256) during tools/call "allocate"; it starts again on the next call',
      });
      const row = h.gateway.listServers(ME).find((s) => s.id === 'limited');
      expect(row?.lastError).toContain('memory limit (sandbox.memoryMb: 256)');
      expect(await call('allocate', { mb: 16 }, 'limited')).toBe('ok: allocated 16 MiB');
      // Carte itself kept serving the other servers throughout.
      expect(await call('read_file', { path: '/etc/hostname' })).toMatch(/^ok: /);
    },
  );
});
