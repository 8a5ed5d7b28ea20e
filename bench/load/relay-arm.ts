// Part `relay` (issue 27, item 4): sixteen stdio sessions through a daemon against sixteen
// standalone `carte serve` processes, on one config (everything over stdio) and one data dir. The
// relayed arm is `carte serve --http` plus one `carte serve` per session, each relaying to it over
// the data dir's unix socket; the standalone arm is `carte serve --standalone` per session. Both arms
// are open at once and measured in alternating segments, so machine noise hits both alike. Carte's
// CPU per call is the relays and the daemon together against the standalone processes; the upstream
// processes are counted from /proc (children whose command line names server-everything).
import { table } from '../core/report.js';
import { ms, ratio } from '../core/stats.js';
import type { CarteSetup } from './configs.js';
import { startCarteHttp } from './http-face.js';
import { childrenOf, cpuTimeMs, memoryOf } from './proc-info.js';
import { closeAll, openSessions, type Session } from './sessions.js';
import { arm } from './tables.js';
import { emptyStats, mergeStats, runLoop, type LoopStats } from './workload.js';

const KEY = 'everything/echo';

export interface RelayArm {
  stats: LoopStats;
  /** CPU ms over the measured segments: Carte's processes, the upstreams, this bench (the clients). */
  cpu: { carte: number; upstream: number; client: number; daemon: number };
  carteProcesses: number;
  upstreamProcesses: number;
  /** RSS of Carte's processes after the load, summed (MiB). */
  carteRssMiB: number;
}

export interface RelayRow {
  sessions: number;
  standalone: RelayArm;
  relayed: RelayArm;
}

interface ArmSetup {
  sessions: Session[];
  cartePids: number[];
  upstreamPids: () => number[];
}

const everythingOf = (pids: readonly number[]) =>
  pids.flatMap((p) =>
    childrenOf(p)
      .filter((c) => c.cmd.includes('server-everything'))
      .map((c) => c.pid),
  );

const clientCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const sumCpu = (pids: readonly number[]) => pids.reduce((a, p) => a + cpuTimeMs(p), 0);

/** Both arms for `sessions` stdio sessions each. */
export async function relayRow(
  setup: CarteSetup,
  dir: string,
  sessions: number,
  opts: { durationMs: number; rounds: number; warmUpMs: number },
): Promise<RelayRow> {
  const daemon = await startCarteHttp(setup, dir);
  const open: Session[] = [];
  try {
    const standaloneSessions = await openSessions(
      { kind: 'carte', ...setup, serveArgs: ['--standalone'] },
      sessions,
    );
    open.push(...standaloneSessions);
    const relayedSessions = await openSessions({ kind: 'carte', ...setup }, sessions);
    open.push(...relayedSessions);
    const pidsOf = (ss: readonly Session[]) => ss.flatMap((s) => (s.pid === null ? [] : [s.pid]));
    const standalone: ArmSetup = {
      sessions: standaloneSessions,
      cartePids: pidsOf(standaloneSessions),
      upstreamPids: () => everythingOf(pidsOf(standaloneSessions)),
    };
    const relayPids = [...pidsOf(relayedSessions), daemon.pid];
    const relayed: ArmSetup = {
      sessions: relayedSessions,
      cartePids: relayPids,
      upstreamPids: () => everythingOf(relayPids),
    };
    for (const a of [standalone, relayed]) await warmUp(a.sessions, opts.warmUpMs);
    const results = { standalone: emptyArm(), relayed: emptyArm() };
    const loop = { key: KEY, workers: 1, durationMs: opts.durationMs / opts.rounds };
    for (let r = 0; r < opts.rounds; r++)
      for (const name of ['standalone', 'relayed'] as const) {
        const a = name === 'standalone' ? standalone : relayed;
        const into = results[name];
        const upstream = a.upstreamPids();
        const before = {
          carte: sumCpu(a.cartePids),
          upstream: sumCpu(upstream),
          client: clientCpu(),
          daemon: cpuTimeMs(daemon.pid),
        };
        into.stats = mergeStats(into.stats, await runLoop(a.sessions, loop));
        into.cpu.carte += sumCpu(a.cartePids) - before.carte;
        into.cpu.upstream += sumCpu(upstream) - before.upstream;
        into.cpu.client += clientCpu() - before.client;
        if (name === 'relayed') into.cpu.daemon += cpuTimeMs(daemon.pid) - before.daemon;
      }
    for (const [name, a] of [
      ['standalone', standalone],
      ['relayed', relayed],
    ] as const) {
      results[name].carteProcesses = a.cartePids.length;
      results[name].upstreamProcesses = a.upstreamPids().length;
      results[name].carteRssMiB = a.cartePids.reduce((sum, p) => sum + memoryOf(p).rssMiB, 0);
    }
    return { sessions, ...results };
  } finally {
    await closeAll(open);
    await daemon.stop();
  }
}

async function warmUp(sessions: readonly Session[], ms: number): Promise<void> {
  const first = await Promise.all(sessions.map((s) => s.call(KEY, { message: 'warm-up' })));
  const failed = first.findIndex((r) => !r.ok);
  if (failed >= 0)
    throw new Error(
      `warm-up call failed: ${first[failed]!.error}; stderr: ${sessions[failed]!.stderrTail().slice(-500)}`,
    );
  await runLoop(sessions, { key: KEY, workers: 1, durationMs: ms });
}

function emptyArm(): RelayArm {
  return {
    stats: emptyStats(),
    cpu: { carte: 0, upstream: 0, client: 0, daemon: 0 },
    carteProcesses: 0,
    upstreamProcesses: 0,
    carteRssMiB: 0,
  };
}

const perCall = (cpuMs: number, s: LoopStats) => (s.ok === 0 ? 'n/a' : ((cpuMs / s.ok) * 1000).toFixed(0));

/** The part's table: one line per arm, and the ratio of Carte's CPU per call. */
export function relayTable(rows: readonly RelayRow[]): string {
  const lines = rows.flatMap((r) =>
    (['standalone', 'relayed'] as const).map((name) => {
      const a = r[name];
      const f = arm(a.stats);
      return [
        `${r.sessions} x ${name === 'standalone' ? '`carte serve --standalone`' : '`carte serve` relays + 1 daemon'}`,
        f.callsPerS.toFixed(0),
        ms(f.p50),
        ms(f.p99),
        String(a.stats.errors),
        name === 'relayed'
          ? `${perCall(a.cpu.carte, a.stats)} (daemon ${perCall(a.cpu.daemon, a.stats)})`
          : perCall(a.cpu.carte, a.stats),
        perCall(a.cpu.upstream, a.stats),
        String(a.carteProcesses),
        String(a.upstreamProcesses),
        a.carteRssMiB.toFixed(0),
      ];
    }),
  );
  const ratios = rows.map(
    (r) =>
      `${r.sessions} sessions: Carte CPU per call, relayed / standalone = ${ratio(
        r.relayed.cpu.carte / r.relayed.stats.ok,
        r.standalone.cpu.carte / r.standalone.stats.ok,
      )}`,
  );
  return [
    table(
      [
        'arm',
        'calls/s',
        'p50 ms',
        'p99 ms',
        'errors',
        'Carte CPU µs/call',
        'upstream CPU µs/call',
        'Carte processes',
        'upstream processes',
        'Carte RSS MiB (sum)',
      ],
      lines,
    ),
    '',
    ...ratios,
  ].join('\n');
}
