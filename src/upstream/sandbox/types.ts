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
}

/** How limits are enforced here: a cgroup v1 Carte creates, a systemd user scope, rlimits, or not at all. */
export type LimitMechanism = 'cgroup-v1' | 'systemd-scope' | 'rlimit' | 'none';

/** What this machine offers for sandboxing (probed once). */
export interface SandboxSupport {
  /** The sandbox program (bwrap on Linux), or null with `why`. */
  program: string | null;
  why?: string;
  limits: LimitMechanism;
}
