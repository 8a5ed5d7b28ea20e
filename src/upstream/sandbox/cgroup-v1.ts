// Limits through cgroup v1 (memory and pids controllers), when Carte may create groups there.
import {
  accessSync,
  constants,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = '/sys/fs/cgroup';

/** Whether the v1 memory and pids hierarchies are mounted and writable by this process. */
export function cgroupV1Writable(root = ROOT): boolean {
  try {
    for (const c of ['memory', 'pids']) accessSync(join(root, c, 'cgroup.procs'), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** One server's groups: created with its limits, read after it stops, removed when it is gone. */
export class CgroupV1 {
  readonly dirs: string[] = [];

  constructor(
    name: string,
    private readonly limits: { memoryMb?: number; maxProcesses?: number },
    private readonly root = ROOT,
  ) {
    sweepStale(root);
    if (limits.memoryMb !== undefined) {
      const dir = this.make('memory', name);
      const bytes = String(limits.memoryMb * 1024 * 1024);
      writeFileSync(join(dir, 'memory.limit_in_bytes'), bytes);
      // Without swap accounting the limit is on RAM only; with it, RAM plus swap (no escape into swap).
      tryWrite(join(dir, 'memory.memsw.limit_in_bytes'), bytes);
    }
    if (limits.maxProcesses !== undefined)
      writeFileSync(join(this.make('pids', name), 'pids.max'), String(limits.maxProcesses));
  }

  private make(controller: string, name: string): string {
    const dir = join(this.root, controller, 'carte', name);
    mkdirSync(dir, { recursive: true });
    this.dirs.push(dir);
    return dir;
  }

  /** Which limit the group hit, in the config's words, or null. */
  verdict(): string | null {
    for (const dir of this.dirs) {
      if (dir.includes('/memory/')) {
        const oom = /^oom_kill (\d+)/m.exec(readOr(join(dir, 'memory.oom_control')));
        const failcnt = Number(readOr(join(dir, 'memory.failcnt')) || 0);
        if (Number(oom?.[1] ?? 0) > 0 || (oom === null && failcnt > 0))
          return `its memory limit (sandbox.memoryMb: ${this.limits.memoryMb})`;
      } else {
        const max = /^max (\d+)/m.exec(readOr(join(dir, 'pids.events')));
        if (Number(max?.[1] ?? 0) > 0)
          return `its process limit (sandbox.maxProcesses: ${this.limits.maxProcesses})`;
      }
    }
    return null;
  }

  /**
   * Removes the groups once their processes are gone (retries a few times while they exit), and
   * the shared `carte/` parent once the last server's group has gone (it fails, harmlessly, while
   * another Carte's groups remain in it; a later start in Node's recursive mkdir makes it again).
   */
  remove(attempt = 0): void {
    const gone = this.dirs.filter((d) => tryRmdir(d));
    const left = this.dirs.filter((d) => !gone.includes(d));
    this.dirs.splice(0, this.dirs.length, ...left);
    for (const d of gone) {
      pending.delete(d);
      tryRmdir(dirname(d));
    }
    for (const d of left) pending.add(d);
    if (left.length > 0 && attempt < 20) setTimeout(() => this.remove(attempt + 1), 100).unref();
  }
}

/** Groups whose removal is still being retried: tried once more as Carte exits (the retries are unref'd). */
const pending = new Set<string>();
process.on('exit', () => {
  for (const d of pending) if (tryRmdir(d)) tryRmdir(dirname(d));
});

const swept = new Set<string>();

/**
 * Once per process and root: removes the empty groups a Carte that is gone left behind (named
 * `<server>-<pid>-<n>`; a Carte killed, or one that exited while its retries waited). A group
 * whose Carte still runs, or that still holds processes, stays.
 */
function sweepStale(root: string): void {
  if (swept.has(root)) return;
  swept.add(root);
  for (const controller of ['memory', 'pids']) {
    const parent = join(root, controller, 'carte');
    let names: string[];
    try {
      names = readdirSync(parent, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = Number(/-(\d+)-\d+$/.exec(name)?.[1]);
      if (pid > 0 && pid !== process.pid && !isAlive(pid)) tryRmdir(join(parent, name));
    }
    tryRmdir(parent); // empty now: made again by the group that follows
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function tryWrite(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch {
    // memsw is absent when the kernel does not account swap.
  }
}

function tryRmdir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'ENOENT';
  }
}
