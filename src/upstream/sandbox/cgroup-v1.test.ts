import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmdirSync, rmSync, symlinkSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cgroupV1Writable, CgroupV1 } from './cgroup-v1.js';

// Real cgroupfs (an ordinary folder keeps its control files, and rmdir fails there): a root of
// symlinks into a cgroup of this test's own, so other Carte processes' groups never interfere.
const writable = cgroupV1Writable();
if (!writable) {
  if (process.env.CI) throw new Error('cgroup v1 memory and pids are not writable: run as root (issue 42)');
  process.stderr.write(
    '*** SKIPPED src/upstream/sandbox/cgroup-v1.test.ts: cgroups are not writable (run as root on cgroup v1) ***\n',
  );
}

describe.runIf(writable)('CgroupV1', () => {
  const own = `carte-unit-${process.pid}`;
  const real = (c: string) => join('/sys/fs/cgroup', c, own);
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'carte-cgroot-'));
    for (const c of ['memory', 'pids']) {
      mkdirSync(real(c));
      symlinkSync(real(c), join(root, c));
    }
  });
  afterAll(() => {
    for (const c of ['memory', 'pids']) {
      for (const d of [join(real(c), 'carte', 'a'), join(real(c), 'carte', 'b'), join(real(c), 'carte')])
        if (existsSync(d)) rmdirSync(d);
      rmdirSync(real(c));
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('removes the empty groups of a Carte that is gone, not those of one that runs', () => {
    const dead = spawnSync('true').pid;
    for (const c of ['memory', 'pids']) {
      mkdirSync(join(real(c), 'carte', `s-${dead}-1`), { recursive: true });
      mkdirSync(join(real(c), 'carte', 'init-1-1'));
    }
    const g = new CgroupV1('a', { maxProcesses: 4 }, root);
    for (const c of ['memory', 'pids']) {
      expect(existsSync(join(real(c), 'carte', `s-${dead}-1`))).toBe(false);
      expect(existsSync(join(real(c), 'carte', 'init-1-1'))).toBe(true);
      rmdirSync(join(real(c), 'carte', 'init-1-1'));
    }
    g.remove();
    expect(existsSync(join(real('pids'), 'carte'))).toBe(false);
    rmdirSync(join(real('memory'), 'carte')); // held by init-1-1 when the sweep ran
  });

  it('writes the limits, then removes its groups and the carte/ parent once the last one goes', () => {
    const limits = { memoryMb: 64, maxProcesses: 8 };
    const a = new CgroupV1('a', limits, root);
    const b = new CgroupV1('b', limits, root);
    expect(a.dirs).toEqual([join(root, 'memory', 'carte', 'a'), join(root, 'pids', 'carte', 'a')]);
    expect(a.verdict()).toBeNull();
    a.remove();
    expect(a.dirs).toEqual([]);
    expect(existsSync(join(real('memory'), 'carte', 'a'))).toBe(false);
    expect(existsSync(join(real('memory'), 'carte', 'b'))).toBe(true);
    b.remove();
    for (const c of ['memory', 'pids']) expect(existsSync(join(real(c), 'carte'))).toBe(false);
    // A later start makes the parent again.
    const again = new CgroupV1('a', { maxProcesses: 4 }, root);
    expect(existsSync(join(real('pids'), 'carte', 'a'))).toBe(true);
    again.remove();
    expect(existsSync(join(real('pids'), 'carte'))).toBe(false);
  });
});
