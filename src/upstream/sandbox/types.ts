/** How one stdio server is confined, resolved by the config (absolute paths, built-ins included). */
export interface SandboxSpec {
  /** Hosts it may reach (`host`, `host:port`, `*.example.com`); empty: no network. */
  network: string[];
  /** Paths it may write besides its state dir and a private /tmp. */
  allowWrite: string[];
  /** Paths hidden from it. */
  denyRead: string[];
  memoryMb?: number;
  maxProcesses?: number;
  /** Its own writable folder, created before it starts. */
  stateDir?: string;
  /** Which program forwards a grant's network (tests and bench pick; default: perl where found). */
  forwarder?: 'node' | 'perl';
}

/** How limits are enforced here: a cgroup v1 Carte creates, a systemd user scope, rlimits, or not at all. */
export type LimitMechanism = 'cgroup-v1' | 'systemd-scope' | 'rlimit' | 'none';

/** What this machine offers for sandboxing (probed once). */
export interface SandboxSupport {
  /** The sandbox program (bwrap on Linux), or null with `why`. */
  program: string | null;
  why?: string;
  limits: LimitMechanism;
  /** Linux: the perl that runs a grant's network forwarder (probed); absent: Node runs it. */
  perl?: string;
}

/** A stdio command wrapped in its sandbox, with what to read and release when it stops. */
export interface SandboxLaunch {
  command: string;
  args: string[];
  /** Which limit stopped the server, in the config's words, or null. */
  verdict(): string | null;
  /** Removes the cgroups, the proxy and its socket once the server has stopped. */
  release(): void;
  /** Variables the server gets besides its own (macOS: TMPDIR and the proxy's). */
  env?: Record<string, string>;
}
