// The everything server in Streamable HTTP mode on a free port, as a real remote upstream.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { cleanEnv, referenceEntry } from '../core/paths.js';

/** A free TCP port on 127.0.0.1 (closed again before it is returned; a tiny race we accept). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface HttpUpstream {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts `PORT=<port> node <everything>/dist/index.js streamableHttp` and waits until it listens. */
export async function startEverythingHttp(timeoutMs = 20_000): Promise<HttpUpstream> {
  const port = await freePort();
  const child = spawn(process.execPath, [referenceEntry('server-everything'), 'streamableHttp'], {
    env: cleanEnv({ PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`everything (HTTP) did not listen within ${timeoutMs} ms: ${seen}`)),
      timeoutMs,
    );
    const onData = (c: Buffer) => {
      seen = (seen + c.toString()).slice(-2000);
      if (seen.includes(`listening on port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`everything (HTTP) exited with ${code}: ${seen}`)));
  });
  // Keep draining its output: it logs every request and a full pipe would stall it.
  child.stdout.resume();
  child.stderr.resume();
  return { url: `http://127.0.0.1:${port}/mcp`, pid: child.pid!, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
