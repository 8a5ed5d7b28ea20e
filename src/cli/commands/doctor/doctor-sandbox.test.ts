import { describe, expect, it } from 'vitest';
import type { ServerSummary } from '../../../gateway/index.js';
import { sandboxFindings } from './doctor-sandbox.js';

const server = (id: string, sandbox: ServerSummary['sandbox']): ServerSummary =>
  ({ id, enabled: true, ...(sandbox === undefined ? {} : { sandbox }) }) as ServerSummary;

describe('doctor: sandbox findings', () => {
  it('names the mechanism, warns about each unsandboxed stdio server and shows the grants', () => {
    const findings = sandboxFindings(
      [
        server('open', null),
        server('web', undefined),
        server('boxed', { network: ['a.com'], memoryMb: 256 }),
      ],
      { program: 'bwrap', limits: 'cgroup-v1', perl: '/usr/bin/perl' },
    );
    expect(findings).toEqual([
      {
        check: 'sandbox',
        ok: true,
        detail:
          'bwrap works here; network forwarder: Perl (/usr/bin/perl); limits: cgroup v1 groups Carte creates (memory, pids)',
      },
      {
        check: 'server open',
        ok: true,
        detail:
          'warning: runs unsandboxed, with your full rights (files, keys, network); add "sandbox: true" (docs/sandbox.md)',
      },
      { check: 'server boxed', ok: true, detail: 'sandboxed; network: a.com; limits: memory 256 MiB' },
    ]);
  });

  it("without perl, says Carte's Node forwards a grant's network", () => {
    const [first] = sandboxFindings([], { program: 'bwrap', limits: 'cgroup-v1' });
    expect(first?.detail).toBe(
      "bwrap works here; network forwarder: Carte's Node (no usable perl found; a grant starts slower); limits: cgroup v1 groups Carte creates (memory, pids)",
    );
  });

  it('on macOS: sandbox-exec, no limits (no cgroups), and a server asking for limits will not start', () => {
    const findings = sandboxFindings(
      [server('boxed', { network: [] }), server('limited', { network: [], memoryMb: 256 })],
      { program: 'sandbox-exec', limits: 'none' },
    );
    expect(findings).toEqual([
      {
        check: 'sandbox',
        ok: true,
        detail:
          'sandbox-exec works here; limits: none apply on this platform (no cgroups, as on macOS): a server with memoryMb or maxProcesses will not start',
      },
      { check: 'server boxed', ok: true, detail: 'sandboxed; network: none; limits: none' },
      {
        check: 'server limited',
        ok: false,
        detail:
          'sandboxed; network: none; limits: memory 256 MiB; no limits apply here, so it will not start',
        fix: 'drop memoryMb and maxProcesses from its sandbox, or run Carte where cgroups can be had (Linux)',
      },
    ]);
  });

  it('fails when a server asks for a sandbox that cannot be had', () => {
    const [first] = sandboxFindings([server('boxed', { network: [] })], {
      program: null,
      why: 'bubblewrap (bwrap) is not installed; install it (Debian and Ubuntu: apt-get install bubblewrap)',
      limits: 'rlimit',
    });
    expect(first).toMatchObject({ check: 'sandbox', ok: false });
  });
});
