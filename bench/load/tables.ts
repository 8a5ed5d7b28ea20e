// The load bench's markdown: one comparison table, one overhead line per row, the fault table.
import { median, ms, quantile, ratio } from '../core/stats.js';
import { table } from '../core/report.js';
import type { CompareResult } from './compare.js';
import type { Decomposition } from './decompose.js';
import type { FaultResult } from './faults.js';
import type { LoopStats } from './workload.js';

/** Throughput and latency of one arm. */
/** The row's name: the upstream's transport, and how clients reach Carte when not over stdio. */
const upstreamCell = (r: CompareResult) => {
  const face = r.face === 'http' ? `; clients over HTTP, ${r.era ?? 'legacy'} era` : '';
  const raw = r.generator === 'raw' ? ', raw POSTs' : '';
  return `${r.upstream}${face}${raw}${r.build ? ` (${r.build})` : ''}`;
};

export function arm(s: LoopStats): { callsPerS: number; p50: number; p99: number } {
  return {
    callsPerS: (s.ok / s.elapsedMs) * 1000,
    p50: quantile(s.latencies, 0.5),
    p99: quantile(s.latencies, 0.99),
  };
}

const errors = (s: LoopStats) =>
  s.errors === 0
    ? '0'
    : `${s.errors} (${Object.entries(s.errorKinds)
        .map(([k, n]) => `${k}: ${n}`)
        .join('; ')})`;

const mib = (xs: readonly number[]) =>
  xs.length ? `${median(xs).toFixed(0)} / ${Math.max(...xs).toFixed(0)}` : 'n/a';

export function compareTable(results: readonly CompareResult[]): string {
  return table(
    [
      'upstream',
      'sessions x in flight',
      'direct calls/s',
      'Carte calls/s',
      'direct p50 ms',
      'Carte p50 ms',
      'overhead p50 ms',
      'p50 ratio',
      'direct p99 ms',
      'Carte p99 ms',
      'errors direct / Carte',
      'Carte RSS MiB idle (median / max)',
      'Carte RSS MiB after load',
      'Carte peak RSS MiB',
    ],
    results.map((r) => {
      const d = arm(r.direct);
      const c = arm(r.carte);
      return [
        upstreamCell(r),
        `${r.sessions} x ${r.workers}`,
        d.callsPerS.toFixed(0),
        c.callsPerS.toFixed(0),
        ms(d.p50),
        ms(c.p50),
        ms(c.p50 - d.p50),
        ratio(c.p50, d.p50),
        ms(d.p99),
        ms(c.p99),
        `${errors(r.direct)} / ${errors(r.carte)}`,
        mib(r.carteRss.idle),
        mib(r.carteRss.loaded),
        mib(r.carteRss.peak),
      ];
    }),
  );
}

/** CPU per successful call, µs: where each arm's work goes, apart from waiting for a CPU. */
export function cpuTable(results: readonly CompareResult[]): string {
  const us = (cpuMs: number, calls: number) => (calls ? ((cpuMs / calls) * 1000).toFixed(0) : 'n/a');
  return table(
    [
      'upstream',
      'sessions x in flight',
      'direct: client',
      'direct: server',
      'Carte arm: client',
      'Carte arm: Carte',
      'Carte arm: server',
      'CPU per call, Carte arm / direct',
    ],
    results.map((r) => {
      const d = r.cpu.direct;
      const c = r.cpu.carte;
      const dTotal = (d.client + d.upstream) / r.direct.ok;
      const cTotal = (c.client + c.carte + c.upstream) / r.carte.ok;
      return [
        upstreamCell(r),
        `${r.sessions} x ${r.workers}`,
        us(d.client, r.direct.ok),
        us(d.upstream, r.direct.ok),
        us(c.client, r.carte.ok),
        us(c.carte, r.carte.ok),
        us(c.upstream, r.carte.ok),
        ratio(cTotal, dTotal),
      ];
    }),
  );
}

export function decompositionTable(d: Decomposition): string {
  const base = arm(d.direct);
  const rows: [string, LoopStats][] = [
    ['direct: v2 client -> everything (stdio)', d.direct],
    ['in-process `Gateway.callTool` -> everything (Carte core + upstream client)', d.gateway],
    ['v2 client -> `carte serve` -> everything (adds the MCP face and a process hop)', d.carte],
  ];
  return table(
    ['path', 'calls/s', 'p50 ms', 'p99 ms', 'p50 added vs direct ms'],
    rows.map(([label, s]) => {
      const a = arm(s);
      return [label, a.callsPerS.toFixed(0), ms(a.p50), ms(a.p99), ms(a.p50 - base.p50)];
    }),
  );
}

export function overheadLine(r: CompareResult): string {
  const d = arm(r.direct);
  const c = arm(r.carte);
  return `- ${upstreamCell(r)}, ${r.sessions} session(s) x ${r.workers}: Carte adds ${ms(c.p50 - d.p50)} ms at p50 (${ratio(c.p50, d.p50)}), throughput ${ratio(c.callsPerS, d.callsPerS)} of direct; ${r.direct.ok + r.carte.ok} calls.`;
}

const outcomesOf = (outcomes: Record<string, number>): string =>
  Object.entries(outcomes)
    .map(([k, n]) => `${n} x ${k}`)
    .join('<br>');

export function faultTable(f: FaultResult): string {
  const e = arm(f.echo);
  const crashOutcomes = outcomesOf(f.crash.outcomes);
  const after = (r: FaultResult['finalEcho']) =>
    r.ok ? 'ok' : `failed: ${r.error}: ${(r.message ?? '').slice(0, 200)}`;
  const yes = (b: boolean) => (b ? 'yes' : '**no**');
  return table(
    ['check', 'result'],
    [
      [
        `everything/echo calls (${f.echoWorkers} in flight, one Carte)`,
        `${f.echo.calls} in ${(f.echo.elapsedMs / 1000).toFixed(1)} s (${e.callsPerS.toFixed(0)}/s)`,
      ],
      ['everything/echo errors', errors(f.echo)],
      ['everything/echo p50 / p99 ms', `${ms(e.p50)} / ${ms(e.p99)}`],
      ['faults/crash calls (each one kills the fixture mid-call)', String(f.crash.calls)],
      ['faults/crash outcomes (Carte error code: message)', crashOutcomes || 'none'],
      [
        'faults/crash time to answer p50 ms (includes restarting the fixture)',
        ms(quantile(f.crash.latencies, 0.5)),
      ],
      ['hangs/hang calls (2 in flight; the tool never answers; timeoutMs 1000)', String(f.hang.calls)],
      ['hangs/hang outcomes', outcomesOf(f.hang.outcomes) || 'none'],
      [
        'hangs/hang time to answer p50 / max ms (must be under timeout + 1000)',
        `${ms(quantile(f.hang.latencies, 0.5))} / ${ms(Math.max(0, ...f.hang.latencies))}`,
      ],
      ['distinct faults fixture pids seen under Carte (polled every 20 ms)', String(f.faultsPidsSeen)],
      [
        'everything kept the same process',
        yes(f.everythingPid.before !== null && f.everythingPid.before === f.everythingPid.after),
      ],
      ['Carte process alive after the run', yes(f.carteAlive)],
      ['everything/echo after the run', after(f.finalEcho)],
      [
        'faults/echo right after the run (restart on demand, unless the circuit breaker is open)',
        after(f.finalFaultsEcho),
      ],
      ['Carte RSS / peak MiB', `${f.carteRss.rssMiB.toFixed(0)} / ${f.carteRss.peakMiB.toFixed(0)}`],
    ],
  );
}
