import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchSandboxed } from './launch.js';
import type { SandboxSpec } from './types.js';

// The macOS launch built on Linux: sandbox-exec cannot run here, but the argv, the environment,
// the allowlist proxy on its loopback port and the clean-up can all be checked.
const MAC = { program: 'sandbox-exec', limits: 'none' } as const;
const target = (sandbox: SandboxSpec) => ({ command: 'node', args: ['server.js'], sandbox });

function status(port: number, url: string): Promise<number> {
  return new Promise((ok, fail) => {
    request({ host: '127.0.0.1', port, path: url, headers: { host: new URL(url).host } }, (r) => {
      r.resume();
      ok(r.statusCode ?? 0);
    })
      .on('error', fail)
      .end();
  });
}

describe('launchSandboxed on macOS', () => {
  it('runs the server under sandbox-exec with its profile, a private TMPDIR and the proxy on loopback', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'carte-mac-'));
    const stateDir = join(dir, 'data', 'servers', 'x');
    const spec = { network: ['api.example.com'], allowWrite: [], denyRead: [join(dir, 'data')], stateDir };
    const launch = await launchSandboxed('x', target(spec), MAC);
    try {
      expect(launch.command).toBe('/usr/bin/sandbox-exec');
      expect(launch.args[0]).toBe('-p');
      expect(launch.args.slice(2)).toEqual(['node', 'server.js']);
      const port = Number(/^http:\/\/127\.0\.0\.1:(\d+)$/.exec(launch.env?.HTTPS_PROXY ?? '')?.[1]);
      expect(launch.env).toMatchObject({ HTTP_PROXY: `http://127.0.0.1:${port}`, NODE_USE_ENV_PROXY: '1' });
      expect(launch.args[1]).toContain(`(remote ip "localhost:${port}")`);
      expect(launch.args[1]).toContain(
        `(subpath "${launch.env!.TMPDIR!.replace(/^\/tmp/, '/private/tmp')}")`,
      );
      expect(existsSync(launch.env!.TMPDIR!)).toBe(true);
      expect(existsSync(stateDir)).toBe(true);
      expect(await status(port, 'http://not-granted.example/')).toBe(403);
    } finally {
      launch.release();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(existsSync(launch.env!.TMPDIR!)).toBe(false);
  });

  it('has no proxy and no network rule without a grant', async () => {
    const launch = await launchSandboxed('x', target({ network: [], allowWrite: [], denyRead: [] }), MAC);
    launch.release();
    expect(Object.keys(launch.env ?? {})).toEqual(['TMPDIR']);
    expect(launch.args[1]).not.toContain('remote ip');
  });

  it('refuses a server that asks for limits, naming the fix', async () => {
    const spec = { network: [], allowWrite: [], denyRead: [], memoryMb: 256 };
    await expect(launchSandboxed('x', target(spec), MAC)).rejects.toThrow(
      'server "x" cannot start: it asks for memoryMb or maxProcesses, but macOS has no cgroups and Carte sets no limits there; drop memoryMb and maxProcesses from its sandbox (they apply on Linux)',
    );
  });
});
