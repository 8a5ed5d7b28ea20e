import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CarteError } from '../../errors.js';
import { startAllowProxy } from './allow-proxy.js';
import { BRIDGE_SOCKET, bwrapArgs, type PathKinds } from './bwrap-args.js';
import { CgroupV1 } from './cgroup-v1.js';
import { FORWARDER_SOURCE, INSIDE_PROXY_PORT } from './forwarder.js';
import { PERL_FORWARDER_SOURCE } from './forwarder-perl.js';
import { loopbackPorts } from './grants.js';
import { probeSandbox } from './probe.js';
import { launchDarwin } from './launch-darwin.js';
import type { SandboxLaunch, SandboxSpec, SandboxSupport } from './types.js';

export type { SandboxLaunch } from './types.js';

const hostPaths: PathKinds = {
  kindOf(path) {
    try {
      return statSync(path).isDirectory() ? 'dir' : 'file';
    } catch {
      return null;
    }
  },
};

let launches = 0;

/**
 * Wraps a stdio server's command in bubblewrap, inside its cgroups when it has limits (macOS:
 * in sandbox-exec, which takes no limits). Throws
 * (the server does not start) when no sandbox or no limit mechanism can be had: a server that
 * asks for a sandbox never runs without one.
 */
export async function launchSandboxed(
  serverId: string,
  target: { command: string; args: string[]; cwd?: string; sandbox: SandboxSpec },
  support: SandboxSupport = probeSandbox(),
): Promise<SandboxLaunch> {
  const spec = target.sandbox;
  if (!support.program)
    throw unavailable(
      serverId,
      `it asks for a sandbox, but ${support.why}; or set "sandbox: false" for it to run unconfined`,
    );
  const wantsLimits = spec.memoryMb !== undefined || spec.maxProcesses !== undefined;
  if (wantsLimits && support.program === 'sandbox-exec')
    throw unavailable(
      serverId,
      'it asks for memoryMb or maxProcesses, but macOS has no cgroups and Carte sets no limits there; drop memoryMb and maxProcesses from its sandbox (they apply on Linux)',
    );
  if (support.program === 'sandbox-exec') return launchDarwin(target);
  if (wantsLimits && support.limits !== 'cgroup-v1' && support.limits !== 'systemd-scope')
    throw unavailable(
      serverId,
      'it asks for memoryMb or maxProcesses, but Carte cannot create cgroups here (run it under systemd with a user session for systemd-run --user, or as root on cgroup v1); or drop the limits',
    );
  if (spec.stateDir) mkdirSync(spec.stateDir, { recursive: true, mode: 0o700 });
  const released: (() => void)[] = [];
  let inner = [target.command, ...target.args];
  let bridgeSocket: string | undefined;
  if (spec.network.length > 0) {
    const dir = mkdtempSync(join(tmpdir(), 'carte-net-'));
    bridgeSocket = join(dir, 'net.sock');
    const proxy = await startAllowProxy(spec.network, bridgeSocket);
    released.push(
      () => proxy.close(),
      () => rmSync(dir, { recursive: true, force: true }),
    );
    const ports = JSON.stringify(loopbackPorts(spec.network));
    inner = [...forwarder(spec, support), BRIDGE_SOCKET, String(INSIDE_PROXY_PORT), ports, ...inner];
  }
  const bwrap = [
    support.program,
    ...bwrapArgs(spec, hostPaths, {
      runFrom: [...inner, ...(target.cwd ? [target.cwd] : [])],
      ...(target.cwd ? { cwd: target.cwd } : {}),
      ...(bridgeSocket ? { bridgeSocket } : {}),
    }),
    '--',
    ...inner,
  ];
  const limits = {
    ...(spec.memoryMb ? { memoryMb: spec.memoryMb } : {}),
    ...(spec.maxProcesses ? { maxProcesses: spec.maxProcesses } : {}),
  };
  let argv = bwrap;
  let verdict = (): string | null => null;
  if (wantsLimits && support.limits === 'cgroup-v1') {
    const group = new CgroupV1(`${serverId}-${process.pid}-${++launches}`, limits);
    released.push(() => group.remove());
    verdict = () => group.verdict();
    // The shell joins the groups, then becomes bwrap: only the server's tree is limited, never Carte.
    const join = group.dirs.map((_, i) => `echo $$ > "$${i + 1}/cgroup.procs"`).join(' && ');
    argv = [
      '/bin/sh',
      '-c',
      `${join} && shift ${group.dirs.length} && exec "$@"`,
      'carte-sandbox',
      ...group.dirs,
      ...bwrap,
    ];
  } else if (wantsLimits) {
    argv = ['systemd-run', '--user', '--scope', '--quiet', ...systemdProps(limits), '--', ...bwrap];
    verdict = () => null;
  }
  const [command, ...args] = argv as [string, ...string[]];
  let final: string | null | undefined;
  return {
    command,
    args,
    verdict: () => (final === undefined ? verdict() : final),
    release: () => {
      if (final !== undefined) return;
      final = verdict();
      for (const r of released) r();
    },
  };
}

/** The program that forwards a grant's network: perl where the probe found one, else Carte's Node. */
function forwarder(spec: SandboxSpec, support: SandboxSupport): string[] {
  const kind = spec.forwarder ?? (support.perl ? 'perl' : 'node');
  return kind === 'perl'
    ? [support.perl ?? '/usr/bin/perl', '-e', PERL_FORWARDER_SOURCE, '--']
    : [process.execPath, '-e', FORWARDER_SOURCE];
}

/** systemd resource properties for a user scope (cgroup v2). */
export function systemdProps(limits: { memoryMb?: number; maxProcesses?: number }): string[] {
  const props: string[] = [];
  if (limits.memoryMb) props.push('-p', `MemoryMax=${limits.memoryMb}M`, '-p', 'MemorySwapMax=0');
  if (limits.maxProcesses) props.push('-p', `TasksMax=${limits.maxProcesses}`);
  return props;
}

function unavailable(serverId: string, why: string): CarteError {
  return new CarteError('upstream_unavailable', `server "${serverId}" cannot start: ${why}`);
}
