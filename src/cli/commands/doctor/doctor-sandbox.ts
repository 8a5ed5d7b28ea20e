import type { ServerSummary, SandboxSupport } from '../../../gateway/index.js';

const MECHANISMS = {
  'cgroup-v1': 'cgroup v1 groups Carte creates (memory, pids)',
  'systemd-scope': 'a systemd user scope (systemd-run --user --scope: MemoryMax, TasksMax)',
  rlimit:
    'none usable (rlimits cannot bound a Node server: a server with memoryMb or maxProcesses will not start)',
  none: 'none apply on this platform (no cgroups, as on macOS): a server with memoryMb or maxProcesses will not start',
} as const;

/**
 * What doctor says of sandboxing: whether bubblewrap works here (and which program forwards a
 * grant's network), which limit mechanism applies,
 * and a warning for each enabled stdio server that runs with the user's full rights.
 */
export function sandboxFindings(
  servers: ServerSummary[],
  support: SandboxSupport,
): { check: string; ok: boolean; detail: string; fix?: string }[] {
  const asking = servers.filter((s) => s.enabled && s.sandbox);
  const findings = [
    {
      check: 'sandbox',
      ok: support.program !== null || asking.length === 0,
      detail: `${support.program ? `${support.program} works here` : `no sandbox: ${support.why}`}${forwarderText(support)}; limits: ${MECHANISMS[support.limits]}`,
      ...(support.program
        ? {}
        : {
            fix: 'install bubblewrap (apt-get install bubblewrap) or set "sandbox: false" on the servers that ask for one',
          }),
    },
  ];
  for (const s of servers.filter((x) => x.enabled && x.sandbox === null))
    findings.push({
      check: `server ${s.id}`,
      ok: true,
      detail:
        'warning: runs unsandboxed, with your full rights (files, keys, network); add "sandbox: true" (docs/sandbox.md)',
    });
  const canLimit = support.limits === 'cgroup-v1' || support.limits === 'systemd-scope';
  for (const s of asking) {
    const detail = `sandboxed; network: ${s.sandbox!.network.length ? s.sandbox!.network.join(', ') : 'none'}; limits: ${limitsText(s)}`;
    const limited = s.sandbox!.memoryMb !== undefined || s.sandbox!.maxProcesses !== undefined;
    findings.push(
      limited && !canLimit
        ? {
            check: `server ${s.id}`,
            ok: false,
            detail: `${detail}; no limits apply here, so it will not start`,
            fix: 'drop memoryMb and maxProcesses from its sandbox, or run Carte where cgroups can be had (Linux)',
          }
        : { check: `server ${s.id}`, ok: true, detail },
    );
  }
  return findings;
}

/** Which program forwards a grant's network inside bubblewrap (docs/sandbox.md). */
function forwarderText(support: SandboxSupport): string {
  if (support.program !== 'bwrap') return '';
  return `; network forwarder: ${support.perl ? `Perl (${support.perl})` : "Carte's Node (no usable perl found; a grant starts slower)"}`;
}

function limitsText(s: ServerSummary): string {
  const parts = [
    ...(s.sandbox?.memoryMb ? [`memory ${s.sandbox.memoryMb} MiB`] : []),
    ...(s.sandbox?.maxProcesses ? [`${s.sandbox.maxProcesses} processes`] : []),
  ];
  return parts.length ? parts.join(', ') : 'none';
}
