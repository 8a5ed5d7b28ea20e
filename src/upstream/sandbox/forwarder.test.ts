import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FORWARDER_SOURCE } from './forwarder.js';
import { PERL_FORWARDER_SOURCE } from './forwarder-perl.js';

// Slow: spawns each forwarder (Node's and Perl's) outside any sandbox, on free ports of the host,
// against a stand-in proxy on a unix socket that shows what the forwarder sent it. The real proxy
// in bubblewrap: test/e2e/sandbox/sandbox-forwarder.test.ts.
const hasPerl = spawnSync('/usr/bin/perl', ['-e', '0']).status === 0;
if (!hasPerl) process.stderr.write('*** SKIPPED the Perl forwarder cases: no /usr/bin/perl ***\n');

const PROGRAMS = {
  node: (argv: string[]) => [process.execPath, '-e', FORWARDER_SOURCE, ...argv],
  perl: (argv: string[]) => ['/usr/bin/perl', '-e', PERL_FORWARDER_SOURCE, '--', ...argv],
} as const;

let dir: string;
let sock: string;
let proxy: Server;
/** Each connection's bytes as the stand-in proxy received them, in order. */
const seen: string[] = [];
/** The CONNECT port the stand-in refuses with a 403. */
let refusedPort: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'carte-fwd-'));
  sock = join(dir, 'net.sock');
  // CONNECT: 200 with bytes after the blank line (or 403 for refusedPort), then an echo; else an echo.
  proxy = createServer((c) => {
    const i = seen.push('') - 1;
    let tunnel = false;
    c.on('data', (d) => {
      seen[i] += d.toString('latin1');
      const text = seen[i]!;
      if (!tunnel && text.startsWith('CONNECT') && text.includes('\r\n\r\n')) {
        tunnel = true;
        if (text.includes(`:${refusedPort} `)) return void c.end('HTTP/1.1 403 Forbidden\r\n\r\n');
        c.write('HTTP/1.1 200 Connection Established\r\n\r\nearly;');
        const rest = text.slice(text.indexOf('\r\n\r\n') + 4);
        if (rest) c.write(rest);
      } else if (!text.startsWith('CONNECT') || tunnel) c.write(d);
    });
    c.on('end', () => c.end());
  });
  await new Promise<void>((ok) => proxy.listen(sock, ok));
});
afterAll(() => {
  proxy?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address() as { port: number };
  await new Promise((ok) => s.close(ok));
  return port;
}

/** Starts a forwarder; `ready` resolves on the command's first line of output. */
function start(kind: keyof typeof PROGRAMS, argv: string[]) {
  const [cmd, ...args] = PROGRAMS[kind](argv) as [string, ...string[]];
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const ready = new Promise<string>((ok) =>
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) ok(out);
    }),
  );
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; out: string; err: string }>((ok) =>
    child.on('close', (code) => ok({ code, out, err })),
  );
  return { child, ready, exit };
}

/**
 * Connects to a port, writes `send` once `first` arrived (none: at once), reads until `until` has
 * arrived, then closes; or to the end. (Node's forwarder does not pass a client's half-close on.)
 */
function exchange(port: number, send: string, first: string, until: string): Promise<string> {
  return new Promise((ok, fail) => {
    const c = connect(port, '127.0.0.1');
    let got = '';
    let sent = false;
    const step = () => {
      if (!sent && got.startsWith(first)) {
        sent = true;
        c.write(send);
      }
      if (got === until) c.destroy();
    };
    c.on('connect', step);
    c.on('data', (d) => {
      got += d.toString('latin1');
      step();
    });
    c.on('close', () => ok(got));
    c.on('error', fail);
  });
}

const waitFor = async (n: number) => {
  for (let t = 0; t < 200 && seen.length < n; t++) await new Promise((ok) => setTimeout(ok, 10));
};

describe.each(['node', 'perl'] as const)('the %s forwarder', (kind) => {
  const run = kind === 'perl' && !hasPerl ? it.skip : it;

  run(
    'pipes the proxy port raw, tunnels a granted port after the 200, passes on what follows it',
    async () => {
      const [pport, granted, refused] = [await freePort(), await freePort(), await freePort()];
      refusedPort = refused;
      const ports = JSON.stringify([granted, refused]);
      const f = start(kind, [
        sock,
        String(pport),
        ports,
        '/bin/sh',
        '-c',
        'echo "$HTTP_PROXY $https_proxy $NODE_USE_ENV_PROXY"; exec sleep 60',
      ]);
      expect(await f.ready).toBe(`http://127.0.0.1:${pport} http://127.0.0.1:${pport} 1\n`);
      const before = seen.length;
      const get = 'GET http://a.example/ HTTP/1.1\r\n\r\n';
      expect(await exchange(pport, get, '', get)).toBe(get);
      expect(seen[before]).toBe('GET http://a.example/ HTTP/1.1\r\n\r\n');
      expect(await exchange(granted, 'ping', 'early;', 'early;ping')).toBe('early;ping');
      await waitFor(before + 2);
      expect(seen[before + 1]).toBe(
        `CONNECT 127.0.0.1:${granted} HTTP/1.1\r\nHost: 127.0.0.1:${granted}\r\n\r\nping`,
      );
      // A refused CONNECT passes nothing on and closes; the client's bytes never reach the proxy.
      expect(await exchange(refused, 'secret', 'never', 'never')).toBe('');
      await waitFor(before + 3);
      expect(seen[before + 2]).toBe(
        `CONNECT 127.0.0.1:${refused} HTTP/1.1\r\nHost: 127.0.0.1:${refused}\r\n\r\n`,
      );
      // 4 MiB each way at once: more than any buffer on the path, so writes wait on reads.
      const bulk = Array.from({ length: 1 << 16 }, (_, i) => `${String(i).padStart(63, '.')}\n`).join('');
      expect((await exchange(pport, bulk, '', bulk)) === bulk).toBe(true);
      f.child.kill('SIGTERM');
      expect((await f.exit).code).toBe(128 + 15);
    },
  );

  run.each([
    ['SIGTERM', 41],
    ['SIGINT', 42],
    ['SIGHUP', 43],
  ] as const)('forwards %s to the command and exits with its code', async (signal, code) => {
    const script = `for (const [s, c] of [['SIGTERM', 41], ['SIGINT', 42], ['SIGHUP', 43]]) process.on(s, () => process.exit(c)); console.log('ready'); setTimeout(() => {}, 60000);`;
    const f = start(kind, [sock, String(await freePort()), '[]', process.execPath, '-e', script]);
    await f.ready;
    f.child.kill(signal);
    expect((await f.exit).code).toBe(code);
  });

  run.each([
    ['exit 3', 3],
    ['kill -KILL $$', 128 + 9],
  ])('`sh -c "%s"`: exits %i', async (script, code) => {
    const f = start(kind, [sock, String(await freePort()), '[]', '/bin/sh', '-c', script]);
    expect((await f.exit).code).toBe(code);
  });

  run('a command that cannot start: 127 and why', async () => {
    const f = start(kind, [sock, String(await freePort()), '[]', '/nonexistent/carte-cmd']);
    const r = await f.exit;
    expect(r.code).toBe(127);
    expect(r.err).toMatch(/^carte sandbox: cannot start \/nonexistent\/carte-cmd: .*(ENOENT|No such file)/);
  });

  run('a port it cannot listen on: 1, and the command never starts', async () => {
    const pport = await freePort();
    const f = start(kind, [sock, String(pport), JSON.stringify([pport]), '/bin/sh', '-c', 'echo started']);
    const r = await f.exit;
    expect(r).toMatchObject({ code: 1, out: '' });
    expect(r.err).toMatch(/^carte sandbox: cannot listen/);
  });
});
