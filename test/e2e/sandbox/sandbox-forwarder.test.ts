import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { launchSandboxed } from '../../../src/upstream/sandbox/launch.js';
import { probeSandbox } from '../../../src/upstream/index.js';

// Slow: each network forwarder (Node's, Perl's) in bubblewrap, behind Carte's real allowlist
// proxy: a granted local port reached by a plain connect, an ungranted one refused, a CONNECT
// through the proxy port to a granted host answered, to an ungranted one refused (issue 42).
const hasBwrap = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', 'true']).status === 0;
if (!hasBwrap) {
  if (process.env.CI) throw new Error('bwrap is missing or cannot create namespaces: install bubblewrap');
  process.stderr.write(
    '*** SKIPPED test/e2e/sandbox/sandbox-forwarder.test.ts: bwrap is missing (apt-get install bubblewrap) ***\n',
  );
}
const hasPerl = hasBwrap && probeSandbox().perl !== undefined;
if (hasBwrap && !hasPerl)
  process.stderr.write('*** SKIPPED the Perl cases of sandbox-forwarder.test.ts: no usable perl ***\n');

/** Runs inside the sandbox: what each way out gives, as JSON on stdout. */
const PROBE = `
const net = require('node:net');
const [web, other] = process.argv.slice(1).map(Number);
const talk = (port, first) => new Promise((ok) => {
  const c = net.connect(port, '127.0.0.1');
  let got = '';
  c.on('connect', () => c.write(first));
  c.on('data', (d) => {
    got += d;
    if (got.startsWith('HTTP/1.1 200 Connection') && got.endsWith('\\r\\n\\r\\n')) c.write('GET / HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n');
  });
  c.on('end', () => ok(got.split('\\r\\n')[0] + ' ' + got.split('\\r\\n\\r\\n').pop()));
  c.on('error', (e) => ok(e.code));
});
const get = 'GET / HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n';
const connectTo = (port) => 'CONNECT localhost:' + port + ' HTTP/1.1\\r\\nHost: localhost:' + port + '\\r\\n\\r\\n';
Promise.all([talk(web, get), talk(other, get), talk(3128, connectTo(web)), talk(3128, connectTo(other))])
  .then((r) => console.log(JSON.stringify(r)));
`;

let root: string;
let web: Server;
let other: Server;
const ports: number[] = [];

async function listen(body: string): Promise<Server> {
  const s = createServer((_req, res) => res.end(body));
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  ports.push((s.address() as { port: number }).port);
  return s;
}

describe.runIf(hasBwrap)('sandbox: the network forwarder', () => {
  beforeAll(async () => {
    root = mkdtempSync('/var/tmp/carte-sandbox-fwd-');
    web = await listen('granted-web');
    other = await listen('other-web');
  });
  afterAll(() => {
    web?.close();
    other?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it.each(['node', 'perl'] as const)('%s: exactly the granted port and host', async (forwarder) => {
    if (forwarder === 'perl' && !hasPerl) return;
    const [webPort, otherPort] = ports as [number, number];
    const launch = await launchSandboxed('fwd', {
      command: process.execPath,
      args: ['-e', PROBE, String(webPort), String(otherPort)],
      sandbox: {
        network: [`localhost:${webPort}`],
        allowWrite: [],
        denyRead: [],
        stateDir: join(root, forwarder),
        forwarder,
      },
    });
    const child = spawn(launch.command, launch.args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise((ok) => child.on('close', ok));
    launch.release();
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual([
      'HTTP/1.1 200 OK granted-web',
      'ECONNREFUSED',
      'HTTP/1.1 200 Connection Established granted-web',
      'HTTP/1.1 403 Forbidden ',
    ]);
  });
});
