// macOS: a stdio server under sandbox-exec with the profile made from its SandboxSpec (sbpl.ts).
// There is no network namespace: Carte's allowlist proxy listens on a loopback port, the only
// one (with the granted loopback ports) the profile lets the server reach, and the server finds
// it through the proxy variables. Not run here (Linux CI); see docs/sandbox.md.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAllowProxy } from './allow-proxy.js';
import { loopbackPorts } from './grants.js';
import { SANDBOX_EXEC, sbplProfile } from './sbpl.js';
import type { SandboxLaunch, SandboxSpec } from './types.js';

/** Wraps the command in sandbox-exec: a private temp dir, the proxy when it has a grant. */
export async function launchDarwin(target: {
  command: string;
  args: string[];
  sandbox: SandboxSpec;
}): Promise<SandboxLaunch> {
  const spec = target.sandbox;
  if (spec.stateDir) mkdirSync(spec.stateDir, { recursive: true, mode: 0o700 });
  const tmpDir = realpathSync(mkdtempSync(join(tmpdir(), 'carte-tmp-')));
  const released: (() => void)[] = [() => rmSync(tmpDir, { recursive: true, force: true })];
  const env: Record<string, string> = { TMPDIR: tmpDir };
  let proxyPort: number | null = null;
  if (spec.network.length > 0) {
    const proxy = await startAllowProxy(spec.network, 0);
    released.unshift(() => proxy.close());
    proxyPort = proxy.port;
    const url = `http://127.0.0.1:${proxyPort}`;
    Object.assign(env, { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url });
    env.NODE_USE_ENV_PROXY = '1';
  }
  // Seatbelt matches resolved paths: a link in a configured path would slip past its rule.
  const real = { ...spec, allowWrite: spec.allowWrite.map(resolved), denyRead: spec.denyRead.map(resolved) };
  if (spec.stateDir) real.stateDir = resolved(spec.stateDir);
  const profile = sbplProfile(real, { tmpDir, proxyPort, loopbackPorts: loopbackPorts(spec.network) });
  let done = false;
  return {
    command: SANDBOX_EXEC,
    args: ['-p', profile, target.command, ...target.args],
    env,
    verdict: () => null,
    release: () => {
      if (done) return;
      done = true;
      for (const r of released) r();
    },
  };
}

/** The path with its links resolved, when it exists (a missing one has none to follow). */
function resolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
