// What this machine offers for sandboxing, probed once per process.
import { tmpdir } from 'node:os';
import { cgroupV1Writable } from './cgroup-v1.js';
import { PERL_FORWARDER_CHECK, PERL_FORWARDER_SOURCE } from './forwarder-perl.js';
import { SANDBOX_EXEC, sbplProfile } from './sbpl.js';
import type { LimitMechanism, SandboxSupport } from './types.js';

let cached: SandboxSupport | undefined;

/** Probes bwrap (it must run a command with every namespace unshared) and the limit mechanism. */
export function probeSandbox(platform: NodeJS.Platform = process.platform): SandboxSupport {
  cached ??= probe(platform);
  return cached;
}

function probe(platform: NodeJS.Platform): SandboxSupport {
  const limits = limitMechanism(platform);
  if (platform === 'darwin') return probeDarwin();
  if (platform !== 'linux')
    return {
      program: null,
      why: `no sandbox is supported on ${platform} yet (Linux with bubblewrap, macOS with sandbox-exec)`,
      limits,
    };
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const run = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', 'true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: 10_000,
  });
  if ((run.error as { code?: string } | undefined)?.code === 'ENOENT')
    return {
      program: null,
      why: 'bubblewrap (bwrap) is not installed; install it (Debian and Ubuntu: apt-get install bubblewrap)',
      limits,
    };
  if (run.status !== 0) {
    const why = (run.stderr ?? run.error?.message ?? '').trim().split('\n')[0];
    return {
      program: null,
      why: `bwrap cannot create namespaces here (${why}); allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or the AppArmor bwrap profile on Ubuntu)`,
      limits,
    };
  }
  // Probed on first read: only a server with a network grant (or doctor) needs a forwarder.
  return {
    program: 'bwrap',
    limits,
    get perl() {
      return (perlProbed ??= { path: probePerl() }).path;
    },
  };
}

let perlProbed: { path: string | undefined } | undefined;

/**
 * The perl that runs a grant's network forwarder (forwarder-perl.ts): /usr/bin/perl (perl-base,
 * Essential on Debian and Ubuntu), else perl on PATH, if it compiles the forwarder and its written-out
 * constants are this machine's.
 * Its absolute path, from the perl itself; undefined: Node runs the forwarder.
 */
function probePerl(): string | undefined {
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  for (const perl of ['/usr/bin/perl', 'perl']) {
    // The whole program compiles, its constants are checked, then only its path is printed.
    const run = spawnSync(perl, ['-e', `${PERL_FORWARDER_CHECK}${PERL_FORWARDER_SOURCE}`], {
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
      timeout: 10_000,
    });
    if (run.status === 0 && run.stdout.startsWith('/')) return run.stdout;
  }
  return undefined;
}

/**
 * macOS: sandbox-exec must compile and apply a profile of Carte's own shape (every section, a
 * grant included), so a profile this macOS refuses shows in doctor, not at each server's start.
 * No limits apply there (no cgroups).
 */
function probeDarwin(): SandboxSupport {
  const profile = sbplProfile(
    { network: ['localhost:9'], allowWrite: [], denyRead: ['/nonexistent/carte-probe'] },
    { tmpDir: tmpdir(), proxyPort: 9, loopbackPorts: [9] },
  );
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const run = spawnSync(SANDBOX_EXEC, ['-p', profile, '/usr/bin/true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (run.status === 0) return { program: 'sandbox-exec', limits: 'none' };
  const why = (run.stderr || run.error?.message || `exit ${run.status}`).trim().split('\n')[0];
  return {
    program: null,
    why: `${SANDBOX_EXEC} cannot apply Carte's profile here (${why}); please report it`,
    limits: 'none',
  };
}

/** cgroup v1 when writable (root on these machines), else a systemd user scope, else rlimits. */
function limitMechanism(platform: NodeJS.Platform): LimitMechanism {
  if (platform !== 'linux') return 'none';
  if (cgroupV1Writable()) return 'cgroup-v1';
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const scope = spawnSync('systemd-run', ['--user', '--scope', '--quiet', 'true'], {
    stdio: 'ignore',
    timeout: 10_000,
  });
  if (scope.status === 0) return 'systemd-scope';
  return 'rlimit';
}

/** Forgets the probe (tests). */
export function resetSandboxProbe(): void {
  cached = undefined;
}
