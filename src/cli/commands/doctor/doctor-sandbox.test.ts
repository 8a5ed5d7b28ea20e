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
      { program: 'bwrap', limits: 'cgroup-v1' },
    );
    expect(findings).toEqual([
      {
        check: 'sandbox',
        ok: true,
        detail: 'bwrap works here; limits: cgroup v1 groups Carte creates (memory, pids)',
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

  it('fails when a server asks for a sandbox that cannot be had', () => {
    const [first] = sandboxFindings([server('boxed', { network: [] })], {
      program: null,
      why: 'bubblewrap (bwrap) is not installed; install it (Debian and Ubuntu: apt-get install bubblewrap)',
      limits: 'rlimit',
    });
    expect(first).toMatchObject({ check: 'sandbox', ok: false });
  });
});
