// HAProxy in front of Carte replicas, with the backend of docs/operations.md ("Running Carte for a
// team": round robin, legacy sessions kept on their replica by Mcp-Session-Id, health check on
// /readyz), in the foreground so the bench owns its pid and reads its CPU.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './http-upstream.js';

export const HAPROXY = existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';

export interface Haproxy {
  /** The replicas' /mcp through HAProxy. */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts HAProxy on a free port over `backends` (each a replica's /mcp URL) and waits until it answers. */
export async function startHaproxy(dir: string, backends: readonly string[]): Promise<Haproxy> {
  const port = await freePort();
  const servers = backends.map((b, i) => `  server r${i + 1} ${new URL(b).host} check inter 1s`);
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 4096',
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 60s',
      '  timeout server 60s',
      'frontend mcp',
      `  bind 127.0.0.1:${port}`,
      '  default_backend carte',
      // From here as in docs/operations.md.
      'backend carte',
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      '  stick-table type string len 64 size 100k expire 1h',
      '  stick store-response res.hdr(Mcp-Session-Id)',
      '  stick match req.hdr(Mcp-Session-Id)',
      ...servers,
      '',
    ].join('\n'),
  );
  const child = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let tail = '';
  child.stderr.on('data', (c: Buffer) => (tail = (tail + c.toString()).slice(-2000)));
  const exited = new Promise<never>((_, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`haproxy exited with ${code}: ${tail}`)));
  });
  exited.catch(() => undefined);
  const url = `http://127.0.0.1:${port}/mcp`;
  await Promise.race([waitReady(`http://127.0.0.1:${port}/readyz`, backends.length), exited]);
  return { url, pid: child.pid!, stop: () => stopChild(child) };
}

/** Until `/readyz` through HAProxy answered 200 `times` in a row (round robin: once per replica). */
async function waitReady(url: string, times: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let inARow = 0;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      last = `HTTP ${res.status}`;
      await res.arrayBuffer();
      inARow = res.ok ? inARow + 1 : 0;
      if (inARow >= times) return;
    } catch (err) {
      last = (err as Error).message;
      inARow = 0;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`HAProxy at ${url} was not ready within ${timeoutMs} ms (last: ${last})`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
