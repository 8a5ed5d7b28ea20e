// Runs of the real CLI for the crash tests: `carte sync` killed with SIGKILL at a chosen moment,
// and `carte search --json` as a concurrent reader. Each run leads its own process group, so the
// upstream it started is found and ended too.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../e2e/helpers.js';

const BIN = join(ROOT, 'bin', 'carte.js');

/** Where `carte sync` finds its config and store. */
export interface Paths {
  config: string;
  dataDir: string;
}

/**
 * When to SIGKILL the sync: a fixed delay after spawn, or a delay after the fixture logged the
 * last page of a listing to `logFile` (right before the catalog transaction), or never.
 */
export type KillPlan =
  { at: 'spawn'; delayMs: number } | { at: 'listed'; delayMs: number; logFile: string } | { at: 'never' };

export interface SyncRun {
  /** True when our SIGKILL ended the process (false: it had already exited). */
  killed: boolean;
  code: number | null;
  stderr: string;
  /** Processes of the run's group still alive 5 s after carte ended (then SIGKILLed). */
  leftovers: boolean;
}

/** Every pid this module started, for a last-resort cleanup from afterAll. */
const groups = new Set<number>();

export async function runSync(paths: Paths, plan: KillPlan): Promise<SyncRun> {
  const child = spawn(
    process.execPath,
    [BIN, 'sync', '--config', paths.config, '--data-dir', paths.dataDir],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    },
  );
  const pid = child.pid!;
  groups.add(pid);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let killed = false;
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) killed = child.kill('SIGKILL');
  };
  const stopWatching = plan.at === 'never' ? () => undefined : scheduleKill(plan, kill);
  const [code] = await exited;
  stopWatching();
  const leftovers = !(await groupGone(pid, 5_000));
  killGroup(pid);
  groups.delete(pid);
  return { killed, code, stderr, leftovers };
}

function scheduleKill(plan: Exclude<KillPlan, { at: 'never' }>, kill: () => void): () => void {
  if (plan.at === 'spawn') {
    const timer = setTimeout(kill, plan.delayMs);
    return () => clearTimeout(timer);
  }
  // Poll the fixture's log for a new last-page line; a 1 ms poll keeps the aim within a few ms.
  const seen = lastPages(plan.logFile);
  let timer: NodeJS.Timeout | undefined;
  const poll = setInterval(() => {
    if (lastPages(plan.logFile) > seen) {
      clearInterval(poll);
      timer = setTimeout(kill, plan.delayMs);
    }
  }, 1);
  return () => {
    clearInterval(poll);
    clearTimeout(timer);
  };
}

/** How many listings the fixture finished (lines `listed <version> 4 <pid>`). */
function lastPages(logFile: string): number {
  try {
    if (statSync(logFile).size === 0) return 0;
    return readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => / 4 \d+$/.test(l)).length;
  } catch {
    return 0;
  }
}

export interface SearchRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One `carte search <query> --json`; a catalog read that never starts an upstream. */
export async function runSearch(paths: Paths, query: string[]): Promise<SearchRun> {
  const child = spawn(
    process.execPath,
    [BIN, 'search', ...query, '--json', '--config', paths.config, '--data-dir', paths.dataDir],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const pid = child.pid!;
  groups.add(pid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  killGroup(pid);
  groups.delete(pid);
  return { code, stdout, stderr };
}

/** SIGKILLs whatever this module started and is still running (for afterAll). */
export function killAll(): void {
  for (const pid of groups) killGroup(pid);
  groups.clear();
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone
  }
}

async function groupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (groupMembers(pgid).length > 0) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/**
 * Live processes of a group. On Linux, zombies do not count: an upstream orphaned by the kill
 * exits at once but waits for init to reap it, which can take a second or more.
 */
function groupMembers(pgid: number): number[] {
  if (process.platform !== 'linux') {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so cut at the last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(entry));
  }
  return members;
}
