// The fault run: while workers call everything/echo through one Carte, the same Carte is asked to
// call faults/crash (the fixture exits mid-call) about every 300 ms. everything must not notice.
import { setTimeout as sleep } from 'node:timers/promises';
import { childrenOf, isAlive, memoryOf } from './proc-info.js';
import { openSession, type CallResult } from './sessions.js';
import { runLoop, type LoopStats } from './workload.js';
import type { CarteSetup } from './configs.js';

export interface FaultResult {
  echoWorkers: number;
  echo: LoopStats;
  crash: Calls;
  /** hangs/hang calls: the tool never answers, so each must end with Carte's timeout. */
  hang: Calls;
  everythingPid: { before: number | null; after: number | null };
  /** Distinct pids of the faults fixture seen among Carte's children during the run. */
  faultsPidsSeen: number;
  carteAlive: boolean;
  finalEcho: CallResult;
  finalFaultsEcho: CallResult;
  carteRss: { rssMiB: number; peakMiB: number };
}

/** Calls of one faulty tool: how many, how each ended, and how long each took. */
export interface Calls {
  calls: number;
  outcomes: Record<string, number>;
  latencies: number[];
}

const CRASH_EVERY_MS = 300;

/** A message with its numbers and paths blanked, so equal outcomes count together. */
function shape(message = ''): string {
  return message
    .replace(/; its stderr ends with:.*$/s, '')
    .replace(/\d+/g, 'N')
    .slice(0, 140);
}

const pidOf = (pid: number, marker: string) =>
  childrenOf(pid).find((c) => c.cmd.includes(marker))?.pid ?? null;

export async function faultRun(
  setup: CarteSetup,
  opts: { durationMs: number; workers: number },
): Promise<FaultResult> {
  const session = await openSession({ kind: 'carte', ...setup });
  try {
    const carte = session.pid!;
    // Both upstreams running before the first crash, so the crash lands mid-call on a live server.
    for (const [key, args] of [
      ['everything/echo', { message: 'warm-up' }],
      ['faults/echo', { text: 'warm-up' }],
    ] as const) {
      const r = await session.call(key, args);
      if (!r.ok)
        throw new Error(`warm-up ${key} failed: ${r.error}; stderr: ${session.stderrTail().slice(-500)}`);
    }
    const before = pidOf(carte, 'server-everything');
    const faultsPids = new Set<number>();
    // Each crash call restarts the fixture and kills it again within one call: poll to see them.
    const poll = setInterval(() => {
      const faults = pidOf(carte, 'faults.mjs');
      if (faults) faultsPids.add(faults);
    }, 20);
    const stop = new AbortController();
    const callEvery = async (key: string, everyMs: number, into: Calls): Promise<void> => {
      while (!stop.signal.aborted) {
        const t = performance.now();
        const r = await session.call(key, {});
        into.calls++;
        into.latencies.push(performance.now() - t);
        const kind = r.ok ? 'ok (unexpected)' : `${r.error ?? 'unknown'}: ${shape(r.message)}`;
        into.outcomes[kind] = (into.outcomes[kind] ?? 0) + 1;
        await sleep(Math.max(0, everyMs - (performance.now() - t)));
      }
    };
    const crash: Calls = { calls: 0, outcomes: {}, latencies: [] };
    const hang: Calls = { calls: 0, outcomes: {}, latencies: [] };
    const crasher = callEvery('faults/crash', CRASH_EVERY_MS, crash);
    const hangers = [callEvery('hangs/hang', 0, hang), callEvery('hangs/hang', 0, hang)];
    const echo = await runLoop([session], {
      key: 'everything/echo',
      workers: opts.workers,
      durationMs: opts.durationMs,
    });
    stop.abort();
    await Promise.all([crasher, ...hangers]);
    clearInterval(poll);
    return {
      echoWorkers: opts.workers,
      echo,
      crash,
      hang,
      everythingPid: { before, after: pidOf(carte, 'server-everything') },
      faultsPidsSeen: faultsPids.size,
      carteAlive: isAlive(carte),
      finalEcho: await session.call('everything/echo', { message: 'after' }),
      finalFaultsEcho: await session.call('faults/echo', { text: 'after' }),
      carteRss: memoryOf(carte),
    };
  } finally {
    await session.close();
  }
}
