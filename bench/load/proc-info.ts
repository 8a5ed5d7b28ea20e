// What /proc says about a process: memory, CPU time and children (Linux only; elsewhere NaN and []).
import { readdirSync, readFileSync } from 'node:fs';

/** VmRSS and VmHWM (peak RSS) of a process, in MiB. */
export function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
  } catch {
    return { rssMiB: Number.NaN, peakMiB: Number.NaN };
  }
}

/** True while the process exists (signal 0 checks without touching it). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Child processes of `pid` with their command lines (from /proc/<pid>/task/<tid>/children). */
export function childrenOf(pid: number): { pid: number; cmd: string }[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const pids = tasks.flatMap((tid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return pids.flatMap((child) => {
    const cmd = commandLine(child);
    return cmd === undefined ? [] : [{ pid: child, cmd }];
  });
}

/** A process's command line, arguments joined by spaces; undefined once it is gone. */
export function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return undefined;
  }
}

/** Every process below `pid` (children, their children, ...), e.g. a server behind `sh -c`. */
export function descendantsOf(pid: number): { pid: number; cmd: string }[] {
  return childrenOf(pid).flatMap((c) => [c, ...descendantsOf(c.pid)]);
}

/** Linux reports CPU time in clock ticks; USER_HZ is 100 on every mainstream kernel. */
const TICK_MS = 10;

/** System (kernel) CPU time a process has used so far, in ms (10 ms resolution); NaN when unknown. */
export function systemTimeMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[12]) * TICK_MS;
  } catch {
    return Number.NaN;
  }
}

/** User + system CPU time a process has used so far, in ms (10 ms resolution); NaN when unknown. */
export function cpuTimeMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return Number.NaN;
  }
}
