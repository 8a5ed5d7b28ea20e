// One comparison: the same closed loop straight to the upstream and through Carte, in alternating
// segments so machine noise hits both arms alike. CPU time of every process in the chain is read
// from /proc around each segment, so the cost per call can be told apart from waiting for a CPU.
import { childrenOf, cpuTimeMs, memoryOf } from './proc-info.js';
import { closeAll, openSessions, type Session, type Target } from './sessions.js';
import { emptyStats, mergeStats, runLoop, type LoopOptions, type LoopStats } from './workload.js';

export interface CompareSpec {
  upstream: 'stdio' | 'http';
  /** How clients reach Carte: a `carte serve` per session over stdio (default), or one over HTTP. */
  face?: 'stdio' | 'http';
  /** Over the HTTP face: the protocol era the clients pin (legacy: Mcp-Session-Id sessions). */
  era?: 'modern' | 'legacy';
  /** Over the HTTP face: SDK clients (default), or raw replayed POSTs (raw-load.ts). */
  generator?: 'sdk' | 'raw';
  /** Which Carte build served the row when a run compares two (`--raw-baseline`). */
  build?: string;
  sessions: number;
  /** Calls in flight per session. */
  workers: number;
}

/** CPU ms used during an arm's segments: the bench's client side, Carte, and the upstream server(s). */
export interface ArmCpu {
  client: number;
  carte: number;
  upstream: number;
}

export interface CompareResult extends CompareSpec {
  direct: LoopStats;
  carte: LoopStats;
  cpu: { direct: ArmCpu; carte: ArmCpu };
  /** Per Carte process, after warm-up and after the load (MiB). */
  carteRss: { idle: number[]; loaded: number[]; peak: number[] };
}

const KEY = 'everything/echo';

/**
 * Every session makes one call (Carte starts its upstream lazily), then a loop of `ms`: V8 is
 * still compiling Carte's call path for a few seconds, and with 0.3 s of warm-up a fifth of
 * Carte's CPU in the measured segments was the optimizing compiler's threads (perf, 2026-11-25).
 */
async function warmUp(sessions: readonly Session[], workers: number, ms: number): Promise<void> {
  const first = await Promise.all(sessions.map((s) => s.call(KEY, { message: 'warm-up' })));
  const failed = first.findIndex((r) => !r.ok);
  if (failed >= 0) {
    throw new Error(
      `warm-up call failed: ${first[failed]!.error}; stderr: ${sessions[failed]!.stderrTail().slice(-500)}`,
    );
  }
  await runLoop(sessions, { key: KEY, workers, durationMs: ms });
}

const sumCpu = (pids: readonly number[]) => pids.reduce((a, p) => a + cpuTimeMs(p), 0);
const clientCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Runs one segment and adds the CPU each group of processes used during it. */
async function measured(
  sessions: readonly Session[],
  loop: LoopOptions,
  pids: { carte: number[]; upstream: number[] },
  cpu: ArmCpu,
): Promise<LoopStats> {
  const before = { client: clientCpu(), carte: sumCpu(pids.carte), upstream: sumCpu(pids.upstream) };
  const stats = await runLoop(sessions, loop);
  cpu.client += clientCpu() - before.client;
  cpu.carte += sumCpu(pids.carte) - before.carte;
  cpu.upstream += sumCpu(pids.upstream) - before.upstream;
  return stats;
}

export async function compare(
  spec: CompareSpec,
  targets: {
    direct: Target;
    carte: Target;
    /** The upstream server both arms call (an HTTP upstream). */
    upstreamPid?: number;
    /** The direct arm's server when the Carte arm has its own (Carte over HTTP, stdio upstream). */
    directPid?: number;
    /** The Carte process when its sessions have no pid of their own (Carte over HTTP). */
    cartePid?: number;
  },
  opts: { durationMs: number; rounds: number; warmUpMs: number },
): Promise<CompareResult> {
  const direct = await openSessions(targets.direct, spec.sessions);
  const carte = await openSessions(targets.carte, spec.sessions).catch(async (err: unknown) => {
    await closeAll(direct);
    throw err;
  });
  try {
    await warmUp(direct, spec.workers, opts.warmUpMs);
    await warmUp(carte, spec.workers, opts.warmUpMs);
    const cartePids = [
      ...carte.map((s) => s.pid).filter((p): p is number => p !== null),
      ...(targets.cartePid === undefined ? [] : [targets.cartePid]),
    ];
    const shared = targets.upstreamPid === undefined ? [] : [targets.upstreamPid];
    const directOnly = targets.directPid === undefined ? [] : [targets.directPid];
    const pids = {
      direct: {
        carte: [],
        upstream: [...shared, ...directOnly, ...direct.flatMap((s) => (s.pid === null ? [] : [s.pid]))],
      },
      carte: {
        carte: cartePids,
        upstream: [
          ...shared,
          ...cartePids.flatMap((p) =>
            childrenOf(p)
              .filter((c) => c.cmd.includes('server-everything'))
              .map((c) => c.pid),
          ),
        ],
      },
    };
    const idle = cartePids.map((p) => memoryOf(p).rssMiB);
    const cpu = { direct: { client: 0, carte: 0, upstream: 0 }, carte: { client: 0, carte: 0, upstream: 0 } };
    let d = emptyStats();
    let c = emptyStats();
    const loop = { key: KEY, workers: spec.workers, durationMs: opts.durationMs / opts.rounds };
    for (let r = 0; r < opts.rounds; r++) {
      d = mergeStats(d, await measured(direct, loop, pids.direct, cpu.direct));
      c = mergeStats(c, await measured(carte, loop, pids.carte, cpu.carte));
    }
    const after = cartePids.map((p) => memoryOf(p));
    return {
      ...spec,
      direct: d,
      carte: c,
      cpu,
      carteRss: { idle, loaded: after.map((m) => m.rssMiB), peak: after.map((m) => m.peakMiB) },
    };
  } finally {
    await closeAll([...direct, ...carte]);
  }
}
