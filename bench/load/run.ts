// Load bench: `npx tsx bench/load/run.ts [--quick]
// [--only stdio,decompose,http,face,raw,floor,peers,pg,relay,faults,activity,audit]
// [--clients 1,4,16] [--http-clients 1,4] [--face-clients 16] [--face-eras modern,legacy]
// [--raw-clients 16] [--peer-clients 16] [--raw-procs 2] [--raw-baseline other/bin/carte.js]
// [--pg-url postgres://...] [--pg-synchronous-commit off] [--relay-clients 16]
// [--seconds S] [--warm-up S]` (npm run bench:load).
// Concurrent MCP sessions call everything/echo through `carte serve` and straight to the server in
// the same run (stdio and Streamable HTTP upstreams), against two other gateways (peers.ts, only
// when named), the HTTP face on SQLite, on PostgreSQL and as three replicas behind HAProxy
// (store-arms.ts), stdio sessions relayed to one daemon against standalone ones (relay-arm.ts),
// then a fault run with a crashing upstream and the cost of recording each call in the store
// (activity-write.ts) and of auditing it (audit-write.ts).
// Prints markdown; writes bench/out/load.json.
import { flag, hasFlag, numberFlag, requireBuild, tempDir } from '../core/paths.js';
import { machine, machineLine, progress, writeJson } from '../core/report.js';
import { compare, type CompareResult, type CompareSpec } from './compare.js';
import { CONFIGS, setupCarte } from './configs.js';
import { faultRun } from './faults.js';
import { httpFaceRows } from './http-face.js';
import { floorTable, httpFloorRows } from './http-floor.js';
import { rawFaceRows } from './raw-face.js';
import { relayRow, relayTable, type RelayRow } from './relay-arm.js';
import { peerRows } from './peers.js';
import { peerFigures, peerNote, peerTables } from './peer-tables.js';
import { startEverythingHttp } from './http-upstream.js';
import { arm, compareTable, cpuTable, decompositionTable, faultTable, overheadLine } from './tables.js';
import { decompose } from './decompose.js';
import { activityTables, activityWrite } from './activity-write.js';
import { auditTables, auditWrite } from './audit-write.js';
import { DEFAULT_PG_URL } from './pg-database.js';
import { storeArmRows, type StoreOptions, type StoreRow } from './store-arms.js';
import { STORE_NOTE, figures, storeTables } from './store-tables.js';

const HTTP_FACE_NOTE =
  'Over stdio every client session is its own `carte serve` process. Rows marked "clients over HTTP" (part `face`) are one `carte serve --http` shared by every session, with everything over stdio as its upstream; their direct arm calls everything over Streamable HTTP (its `streamableHttp` mode), and their Carte CPU is the one process. Rows marked "raw POSTs" (part `raw`) are the same servers under the raw load generator (recorded `call_tool` POSTs replayed over keep-alive connections by worker processes; their client CPU is the workers\').';

function counts(name: string, fallback: string): number[] {
  const raw = flag(name) ?? fallback;
  const list = raw.split(',').map(Number);
  if (list.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`--${name} takes counts like 1,4,16, not "${raw}"`);
  return list;
}

const PARTS = [
  'stdio',
  'decompose',
  'http',
  'face',
  'raw',
  'floor',
  'peers',
  'pg',
  'relay',
  'faults',
  'activity',
  'audit',
] as const;
type Part = (typeof PARTS)[number];

/**
 * Part `peers` adds about 40 s (four servers, each warmed up and measured) to a full run of
 * 135-170 s, so it runs only when named.
 */
const NOT_BY_DEFAULT: readonly Part[] = ['peers'];

/** `--only a,b`: the parts to run (all but NOT_BY_DEFAULT by default), so one can be measured again alone. */
function parts(): ReadonlySet<Part> {
  const raw = flag('only');
  if (raw === undefined) return new Set(PARTS.filter((p) => !NOT_BY_DEFAULT.includes(p)));
  const list = raw.split(',');
  const bad = list.find((p) => !(PARTS as readonly string[]).includes(p));
  if (bad !== undefined) throw new Error(`--only takes parts from ${PARTS.join(',')}, not "${bad}"`);
  return new Set(list as Part[]);
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

/** Rows of clients reaching Carte over HTTP: sessions x era (`--raw-clients` for parts `raw` and `pg`). */
function faceSpecs(
  quick: boolean,
  countsFlag = 'face-clients',
  erasByDefault = 'modern,legacy',
  sessionsByDefault = quick ? '4' : '16',
): { sessions: number; era: 'modern' | 'legacy' }[] {
  const raw = flag('face-eras') ?? erasByDefault;
  const eras = raw.split(',');
  const bad = eras.find((e) => e !== 'modern' && e !== 'legacy');
  if (bad !== undefined) throw new Error(`--face-eras takes modern and/or legacy, not "${bad}"`);
  return counts(countsFlag, sessionsByDefault).flatMap((sessions) =>
    eras.map((era) => ({ sessions, era: era as 'modern' | 'legacy' })),
  );
}

const RELAY_NOTE =
  "Both arms on one config (everything over stdio) and one data dir, open at once and measured in alternating segments; one call in flight per session. The relayed arm is `carte serve --http` plus one `carte serve` per session that relays its session to it over the data dir's unix socket; its Carte CPU is the relays and the daemon together. Upstream processes are the Carte processes' children running server-everything.";

const FLOOR_NOTE =
  "The same raw load generator against a bare node:http server (bench/load/http-floor-server.mjs) that parses each POST and answers it itself, then one that proxies it to everything over stdio by hand: no SDK, no checks, no audit. Its CPU per call is the least any Node HTTP face spends; against the stdio upstream's in the same segment it bounds the ratio Carte can reach over HTTP from below.";

async function main(): Promise<void> {
  const quick = hasFlag('quick');
  const only = parts();
  const durationMs = numberFlag('seconds', quick ? 1 : 3) * 1000;
  const warmUpMs = numberFlag('warm-up', quick ? 0.3 : 3) * 1000;
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
    // With --raw-baseline, each stdio row runs against that build too (before this build's).
    const baseline = flag('raw-baseline');
    const builds = baseline ? [{ build: 'baseline', bin: baseline }, { build: 'this build' }] : [{}];
    for (const spec of only.has('stdio') ? stdio : []) {
      for (const b of builds) {
        const { build, bin } = b as { build?: string; bin?: string };
        step(
          `stdio upstream, ${spec.sessions} session(s) x ${spec.workers} in flight${build ? `, ${build}` : ''}`,
        );
        const carte = { kind: 'carte', ...stdioSetup, ...(bin ? { bin } : {}) } as const;
        const row = await compare(
          spec,
          { direct: { kind: 'direct-stdio' }, carte },
          { durationMs, rounds, warmUpMs },
        );
        results.push(build ? { ...row, build } : row);
      }
    }
    const decomposing = !quick && only.has('decompose');
    if (decomposing) step('decomposition (direct, in-process gateway, carte serve)');
    const split = decomposing ? await decompose(stdioSetup, { durationMs, rounds }) : undefined;
    if (only.has('http'))
      results.push(...(await httpUpstreamRows(tmp.dir, http, { durationMs, rounds, warmUpMs }, step)));
    if (only.has('face'))
      results.push(
        ...(await httpFaceRows(tmp.dir, faceSpecs(quick), { durationMs, rounds, warmUpMs }, step)),
      );
    if (only.has('raw')) {
      const processes = numberFlag('raw-procs', 2);
      const opts = { durationMs, rounds, warmUpMs, processes, ...(baseline ? { baseline } : {}) };
      results.push(...(await rawFaceRows(tmp.dir, faceSpecs(quick, 'raw-clients'), opts, step)));
    }
    const floor = only.has('floor')
      ? await httpFloorRows(
          faceSpecs(quick, 'raw-clients')
            .filter((s) => s.era === 'modern')
            .map((s) => s.sessions),
          { durationMs, warmUpMs, processes: numberFlag('raw-procs', 2) },
          step,
        )
      : undefined;
    // Issue 28's target is stated at 16 sessions: --quick keeps 16 here and only shortens the segments.
    const peers = only.has('peers')
      ? await peerRows(
          tmp.dir,
          faceSpecs(quick, 'peer-clients', 'modern', '16'),
          { durationMs, rounds, warmUpMs, processes: numberFlag('raw-procs', 2) },
          step,
        )
      : undefined;
    const stores = only.has('pg')
      ? await storeRows(
          tmp.dir,
          faceSpecs(quick, 'raw-clients', 'modern'),
          { durationMs, rounds, warmUpMs },
          step,
        )
      : undefined;
    const relays: RelayRow[] = [];
    if (only.has('relay')) {
      const setup = await setupCarte(tmp.dir, 'relay', CONFIGS.stdio());
      for (const n of counts('relay-clients', quick ? '4' : '16')) {
        step(`stdio sessions relayed to a daemon against standalone, ${n} session(s)`);
        relays.push(await relayRow(setup, tmp.dir, n, { durationMs, rounds, warmUpMs }));
      }
    }
    if (only.has('faults')) step('fault run');
    const faults = only.has('faults')
      ? await faultRun(await setupCarte(tmp.dir, 'faults', CONFIGS.faults()), {
          durationMs: quick ? 2000 : 5000,
          workers: 4,
        })
      : undefined;
    if (only.has('activity')) step('activity write (recording a call in the store)');
    const activity = only.has('activity') ? await activityWrite({ quick }) : undefined;
    if (only.has('audit')) step('audit write (begin + finish against one record)');
    const audit = only.has('audit') ? await auditWrite({ quick }) : undefined;
    const totalS = (performance.now() - started) / 1000;
    const skipped = 'not run (see --only)';
    const out = [
      '# Carte load bench',
      '',
      machineLine(m),
      ...(stale ? ['', `warning: ${stale}`] : []),
      '',
      `Closed loop, after ${warmUpMs / 1000} s of warm-up per arm: each session keeps ${'`workers`'} calls of everything/echo in flight for ${durationMs / 1000} s per arm, in ${rounds} alternating segments (direct, Carte, direct, Carte). Latency is per successful call, client side.`,
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
      split ? decompositionTable(split) : quick ? 'skipped with --quick' : skipped,
      '',
      HTTP_FACE_NOTE,
      '',
      '## The floor of any Node HTTP face (part `floor`)',
      '',
      floor ? `${floorTable(floor)}\n\n${FLOOR_NOTE}` : skipped,
      '',
      '## Carte against other gateways (part `peers`)',
      '',
      peers ? `${peerTables(peers.rows)}\n\n${peerNote(peers.commands)}` : skipped,
      '',
      '## The HTTP face on SQLite, PostgreSQL and three replicas (part `pg`)',
      '',
      stores === undefined
        ? skipped
        : typeof stores === 'string'
          ? stores
          : `${storeTables(stores)}\n\n${STORE_NOTE}`,
      '',
      '## Stdio sessions through one daemon (part `relay`)',
      '',
      only.has('relay') ? `${relayTable(relays)}\n\n${RELAY_NOTE}` : skipped,
      '',
      '## Fault run',
      '',
      faults ? faultTable(faults) : skipped,
      '',
      '## Activity write (recording each call in the store)',
      '',
      activity ? activityTables(activity) : skipped,
      '',
      '## Audit write (the audit log per call)',
      '',
      audit ? auditTables(audit) : skipped,
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
        split &&
        Object.fromEntries(
          Object.entries(split).map(([k, v]) => [k, { ...v, latencies: undefined, ...arm(v) }]),
        ),
      faults: faults && {
        ...faults,
        echo: { ...faults.echo, latencies: undefined },
        crash: { ...faults.crash, latencies: undefined },
        hang: { ...faults.hang, latencies: undefined },
      },
      floor,
      peers: peers && {
        commands: peers.commands,
        rows: peers.rows.map((r) => ({
          ...r,
          arms: r.arms.map((a) => ({ ...a, stats: { ...a.stats, latencies: undefined }, ...peerFigures(a) })),
        })),
      },
      stores:
        typeof stores === 'string'
          ? stores
          : stores?.map((r) => ({
              ...r,
              arms: r.arms.map((a) => ({ ...a, stats: { ...a.stats, latencies: undefined }, ...figures(a) })),
            })),
      relays: relays.map((r) => ({
        ...r,
        standalone: {
          ...r.standalone,
          stats: { ...r.standalone.stats, latencies: undefined },
          ...arm(r.standalone.stats),
        },
        relayed: {
          ...r.relayed,
          stats: { ...r.relayed.stats, latencies: undefined },
          ...arm(r.relayed.stats),
        },
      })),
      activity,
      audit,
      totalS,
    });
    console.log(out.join('\n'));
    console.log(`\nwrote ${path}`);
  } finally {
    tmp.cleanup();
  }
}

/** Carte with everything over Streamable HTTP as its upstream, against the same server called directly. */
async function httpUpstreamRows(
  dir: string,
  http: readonly CompareSpec[],
  opts: { durationMs: number; rounds: number; warmUpMs: number },
  step: (what: string) => void,
): Promise<CompareResult[]> {
  const results: CompareResult[] = [];
  const upstream = await startEverythingHttp();
  try {
    const httpSetup = await setupCarte(dir, 'http', CONFIGS.http(upstream.url));
    for (const spec of http) {
      step(`HTTP upstream, ${spec.sessions} session(s)`);
      const targets = {
        direct: { kind: 'direct-http', url: upstream.url } as const,
        carte: { kind: 'carte', ...httpSetup } as const,
        upstreamPid: upstream.pid,
      };
      results.push(await compare(spec, targets, opts));
    }
  } finally {
    await upstream.stop();
  }
  return results;
}

/**
 * Part `pg`. Run by `--only pg`, it fails without PostgreSQL or HAProxy; in a run of every part it
 * leaves a line saying why it was skipped instead, so the other parts still run on a laptop.
 */
async function storeRows(
  dir: string,
  specs: readonly { sessions: number; era: 'modern' | 'legacy' }[],
  opts: { durationMs: number; rounds: number; warmUpMs: number },
  step: (what: string) => void,
): Promise<StoreRow[] | string> {
  const pgUrl = flag('pg-url') ?? DEFAULT_PG_URL;
  const commit = flag('pg-synchronous-commit');
  if (commit !== undefined && commit !== 'on' && commit !== 'off')
    throw new Error(`--pg-synchronous-commit takes on or off, not "${commit}"`);
  const all: StoreOptions = {
    ...opts,
    processes: numberFlag('raw-procs', 2),
    pgUrl,
    ...(commit !== undefined && { synchronousCommit: commit }),
  };
  try {
    return await storeArmRows(dir, specs, all, step);
  } catch (err) {
    if (flag('only') !== undefined) throw err;
    const why = err instanceof Error ? err.message : String(err);
    progress(`load: part pg skipped: ${why}`);
    return `skipped: ${why.slice(0, 300)}`;
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
