// Load bench: `npx tsx bench/load/run.ts [--quick] [--clients 1,4,16] [--http-clients 1,4] [--seconds S]`
// (npm run bench:load).
// Concurrent MCP sessions call everything/echo through `carte serve` and straight to the server in
// the same run (stdio and Streamable HTTP upstreams), then a fault run with a crashing upstream and
// the cost of recording each call in the store (activity-write.ts).
// Prints markdown; writes bench/out/load.json.
import { flag, hasFlag, numberFlag, requireBuild, tempDir } from '../core/paths.js';
import { machine, machineLine, progress, writeJson } from '../core/report.js';
import { compare, type CompareResult, type CompareSpec } from './compare.js';
import { CONFIGS, setupCarte } from './configs.js';
import { faultRun } from './faults.js';
import { startEverythingHttp } from './http-upstream.js';
import { arm, compareTable, cpuTable, decompositionTable, faultTable, overheadLine } from './tables.js';
import { decompose } from './decompose.js';
import { activityTables, activityWrite } from './activity-write.js';

const HTTP_FACE_NOTE =
  'Downstream HTTP (clients reaching Carte over Streamable HTTP) is not measured: Carte has no HTTP face yet (a later issue). Over stdio every client session is its own `carte serve` process.';

function counts(name: string, fallback: string): number[] {
  const raw = flag(name) ?? fallback;
  const list = raw.split(',').map(Number);
  if (list.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`--${name} takes counts like 1,4,16, not "${raw}"`);
  return list;
}

function specs(quick: boolean): { stdio: CompareSpec[]; http: CompareSpec[] } {
  const clients = counts('clients', quick ? '1,4' : '1,4,16');
  const httpClients = counts('http-clients', quick ? '1' : '1,4');
  const inFlight = quick ? [] : [{ upstream: 'stdio' as const, sessions: 1, workers: 16 }];
  return {
    stdio: [...clients.map((n) => ({ upstream: 'stdio' as const, sessions: n, workers: 1 })), ...inFlight],
    http: httpClients.map((n) => ({ upstream: 'http' as const, sessions: n, workers: 1 })),
  };
}

async function main(): Promise<void> {
  const quick = hasFlag('quick');
  const durationMs = numberFlag('seconds', quick ? 1 : 3) * 1000;
  const rounds = 2;
  const stale = requireBuild();
  const m = machine();
  const { stdio, http } = specs(quick);
  const tmp = tempDir('carte-load-');
  const results: CompareResult[] = [];
  const started = performance.now();
  const step = (what: string) =>
    progress(`load: ${what} (at ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  try {
    const stdioSetup = await setupCarte(tmp.dir, 'stdio', CONFIGS.stdio());
    for (const spec of stdio) {
      step(`stdio upstream, ${spec.sessions} session(s) x ${spec.workers} in flight`);
      results.push(
        await compare(
          spec,
          { direct: { kind: 'direct-stdio' }, carte: { kind: 'carte', ...stdioSetup } },
          { durationMs, rounds },
        ),
      );
    }
    if (!quick) step('decomposition (direct, in-process gateway, carte serve)');
    const parts = quick ? undefined : await decompose(stdioSetup, { durationMs, rounds });
    const upstream = await startEverythingHttp();
    try {
      const httpSetup = await setupCarte(tmp.dir, 'http', CONFIGS.http(upstream.url));
      for (const spec of http) {
        step(`HTTP upstream, ${spec.sessions} session(s)`);
        results.push(
          await compare(
            spec,
            {
              direct: { kind: 'direct-http', url: upstream.url },
              carte: { kind: 'carte', ...httpSetup },
              upstreamPid: upstream.pid,
            },
            { durationMs, rounds },
          ),
        );
      }
    } finally {
      await upstream.stop();
    }
    step('fault run');
    const faults = await faultRun(await setupCarte(tmp.dir, 'faults', CONFIGS.faults()), {
      durationMs: quick ? 2000 : 5000,
      workers: 4,
    });
    step('activity write (recording a call in the store)');
    const activity = await activityWrite({ quick });
    const totalS = (performance.now() - started) / 1000;
    const out = [
      '# Carte load bench',
      '',
      machineLine(m),
      ...(stale ? ['', `warning: ${stale}`] : []),
      '',
      `Closed loop: each session keeps ${'`workers`'} calls of everything/echo in flight for ${durationMs / 1000} s per arm, in ${rounds} alternating segments (direct, Carte, direct, Carte). Latency is per successful call, client side.`,
      '',
      compareTable(results),
      '',
      ...results.map(overheadLine),
      '',
      'CPU time per successful call, µs (from /proc, 10 ms ticks; the client side is this bench process, shared by all sessions; over HTTP the one server process is shared by both arms):',
      '',
      cpuTable(results),
      '',
      '## Where the added latency goes (stdio, 1 session, 1 in flight)',
      '',
      parts ? decompositionTable(parts) : 'skipped with --quick',
      '',
      HTTP_FACE_NOTE,
      '',
      '## Fault run',
      '',
      faultTable(faults),
      '',
      '## Activity write (recording each call in the store)',
      '',
      activityTables(activity),
      '',
      `Total run time: ${totalS.toFixed(0)} s.`,
    ];
    const path = writeJson('load', {
      machine: m,
      durationMs,
      rounds,
      warnings: stale ? [stale] : [],
      note: HTTP_FACE_NOTE,
      results: results.map(slim),
      decomposition:
        parts &&
        Object.fromEntries(
          Object.entries(parts).map(([k, v]) => [k, { ...v, latencies: undefined, ...arm(v) }]),
        ),
      faults: {
        ...faults,
        echo: { ...faults.echo, latencies: undefined },
        crash: { ...faults.crash, latencies: undefined },
        hang: { ...faults.hang, latencies: undefined },
      },
      activity,
      totalS,
    });
    console.log(out.join('\n'));
    console.log(`\nwrote ${path}`);
  } finally {
    tmp.cleanup();
  }
}

/** Drops raw latency arrays from the JSON (the summaries stay). */
function slim(r: CompareResult): unknown {
  const strip = (s: CompareResult['direct']) => ({ ...s, latencies: undefined, ...arm(s) });
  return { ...r, direct: strip(r.direct), carte: strip(r.carte) };
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
