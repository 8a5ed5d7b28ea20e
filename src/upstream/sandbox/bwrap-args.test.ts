import { describe, expect, it } from 'vitest';
import { bwrapArgs, tmpRoots } from './bwrap-args.js';
import type { SandboxSpec } from './types.js';

const SPEC: SandboxSpec = { network: [], allowWrite: [], denyRead: ['/tmp/ci/data'] };
const ALL: { kindOf(p: string): 'dir' | 'file' | null } = { kindOf: () => 'dir' };

describe('tmpRoots', () => {
  it.each([
    [['/tmp/ci/node/bin/node', '/tmp/ci/test/fixture.mjs'], ['/tmp/ci']],
    [['node', '--flag', '/usr/lib/x.js', 'relative/tmp/x'], []],
    [
      ['/tmp/a/x', '/tmp/b', '/tmp/../etc/passwd', '/tmpfoo/x'],
      ['/tmp/a', '/tmp/b'],
    ],
    [
      ['/run/current-system/sw/bin/node', '/run/user/1000/x.mjs', '/run/app/x', '/runner/x'],
      ['/run/current-system', '/run/app'],
    ],
  ])('%j -> %j', (paths, roots) => {
    expect(tmpRoots(paths)).toEqual(roots);
  });
});

describe('bwrapArgs', () => {
  it('empties /run (unix sockets cross network namespaces) and keeps only NixOS programs from it', () => {
    const present = new Set(['/run', '/run/current-system']);
    const args = bwrapArgs(SPEC, { kindOf: (p) => (present.has(p) ? 'dir' : null) }, {});
    const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));
    expect(at('--tmpfs', '/run')).toBeGreaterThan(at('--ro-bind', '/', '/'));
    expect(at('--ro-bind', '/run/current-system', '/run/current-system')).toBeGreaterThan(
      at('--tmpfs', '/run'),
    );
    expect(args).not.toContain('/run/wrappers');
    expect(bwrapArgs(SPEC, { kindOf: () => null }, {})).not.toContain('/run');
  });

  it('binds a /tmp directory the server runs from back read-only, before the denied paths are covered', () => {
    const args = bwrapArgs(SPEC, ALL, { runFrom: ['/tmp/ci/node', '/tmp/ci/fixture.mjs'] });
    const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));
    expect(at('--tmpfs', '/tmp')).toBeGreaterThan(-1);
    expect(at('--ro-bind', '/tmp/ci', '/tmp/ci')).toBeGreaterThan(at('--tmpfs', '/tmp'));
    expect(at('--tmpfs', '/tmp/ci/data')).toBeGreaterThan(at('--ro-bind', '/tmp/ci', '/tmp/ci'));
  });

  it('covers a denied path again after a writable bind above it, not one the bind sits inside', () => {
    const spec: SandboxSpec = {
      network: [],
      allowWrite: ['/home/u'],
      denyRead: ['/home/u/.ssh', '/data', '/srv/carte.yaml'],
      stateDir: '/data/servers/x',
    };
    const kinds = { kindOf: (p: string) => (p.endsWith('.yaml') ? ('file' as const) : ('dir' as const)) };
    const args = bwrapArgs(spec, kinds, {});
    const all = (...seq: string[]) =>
      args.flatMap((_, i) => (seq.every((s, j) => args[i + j] === s) ? [i] : []));
    const [first, again] = all('--tmpfs', '/home/u/.ssh');
    const bind = all('--bind', '/home/u', '/home/u')[0]!;
    expect(first).toBeLessThan(bind);
    expect(again).toBeGreaterThan(bind);
    expect(all('--tmpfs', '/data')).toHaveLength(1);
    expect(all('--ro-bind', '/dev/null', '/srv/carte.yaml')).toHaveLength(1);
    expect(all('--bind', '/data/servers/x', '/data/servers/x')).toHaveLength(1);
  });
});
