// Part `pg` of bench:load (issue 26, item 8): the HTTP face on each store, in one run under the
// same raw load (raw-load.ts) and the same upstream (everything over stdio, one per Carte): (a) one
// `carte serve --http` on SQLite, (b) one on PostgreSQL, (c) three replicas on one PostgreSQL
// database behind HAProxy (haproxy.ts). Each arm has its own scratch database; the arms run in
// alternating segments so machine noise hits them alike.
import type { CarteHttp } from './http-face.js';
import { startCarteHttp } from './http-face.js';
import { CONFIGS, setupCarte } from './configs.js';
import { HAPROXY, startHaproxy, type Haproxy } from './haproxy.js';
import { connectPg, cpuSpent, type PgServer } from './pg-database.js';
import { childrenOf, cpuTimeMs, systemTimeMs } from './proc-info.js';
import { RawLoad, recordCall, type RawConnection } from './raw-load.js';
import { emptyStats, mergeStats, type LoopStats } from './workload.js';

export const STORE_ARMS = ['sqlite', 'postgres', 'replicas'] as const;
export type StoreArmName = (typeof STORE_ARMS)[number];

export const REPLICAS = 3;

/** CPU ms during an arm's segments, per group of processes. */
export interface StoreCpu {
  /** The load generator's workers. */
  client: number;
  /** Every Carte process of the arm (three for `replicas`). */
  carte: number;
  /** The part of `carte` spent in the kernel (socket and pipe writes and reads, fsync). */
  carteSystem: number;
  /** The everything processes behind them. */
  upstream: number;
  /** HAProxy (`replicas` only). */
  haproxy: number;
  /** PostgreSQL's shared processes and the bench databases' backends (the SQLite arm: their idle cost). */
  postgres: number;
}

export interface StoreArm {
  arm: StoreArmName;
  stats: LoopStats;
  cpu: StoreCpu;
}

export interface StoreRow {
  sessions: number;
  era: 'modern' | 'legacy';
  arms: StoreArm[];
}

export interface StoreOptions {
  durationMs: number;
  rounds: number;
  warmUpMs: number;
  /** Load-generator processes per arm. */
  processes: number;
  /** The PostgreSQL server to make the scratch databases on. */
  pgUrl: string;
  /** `--pg-synchronous-commit off`: the scratch databases' setting (default: the server's, on). */
  synchronousCommit?: 'on' | 'off';
}

/** One arm's servers: where the load goes, its token, and the pids whose CPU is its own. */
interface Served {
  arm: StoreArmName;
  url: string;
  token: string;
  cartePids: number[];
  haproxyPid?: number;
}

const KEY = 'everything/echo';

/** Starts every arm, then runs each spec over all three in alternating segments. */
export async function storeArmRows(
  dir: string,
  specs: readonly { sessions: number; era: 'modern' | 'legacy' }[],
  opts: StoreOptions,
  step: (what: string) => void,
): Promise<StoreRow[]> {
  const pgServer = await connectPg(
    opts.pgUrl,
    opts.synchronousCommit ? { synchronousCommit: opts.synchronousCommit } : {},
  );
  const stops: (() => Promise<void>)[] = [];
  try {
    step(`store arms: SQLite, PostgreSQL, ${REPLICAS} replicas behind HAProxy (${HAPROXY}), starting`);
    const served = await startArms(dir, pgServer, stops);
    const rows: StoreRow[] = [];
    for (const spec of specs) {
      step(`store arms (${spec.era} era), ${spec.sessions} session(s)`);
      rows.push(await runSpec(spec, served, pgServer, opts));
    }
    return rows;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await pgServer.close();
  }
}

async function startArms(dir: string, pgServer: PgServer, stops: (() => Promise<void>)[]): Promise<Served[]> {
  // An empty CARTE_DATABASE_URL means SQLite even when the bench's own environment names a database.
  const single = { CARTE_DATABASE_URL: await pgServer.createDatabase('single') };
  const shared = { CARTE_DATABASE_URL: await pgServer.createDatabase('replicas') };
  const [sqlite, pgSetup, replicaSetup] = await Promise.all([
    setupCarte(dir, 'store-sqlite', CONFIGS.stdio(), { CARTE_DATABASE_URL: '' }),
    setupCarte(dir, 'store-pg', CONFIGS.stdio(), single),
    setupCarte(dir, 'store-replicas', CONFIGS.stdio(), shared),
  ]);
  const started = async (p: Promise<CarteHttp>) => {
    const c = await p;
    stops.push(() => c.stop());
    return c;
  };
  const [a, b, ...replicas] = await Promise.all([
    started(startCarteHttp(sqlite, dir)),
    started(startCarteHttp(pgSetup, dir)),
    // Each replica has its own data dir, as on its own machine; the store is the shared database.
    ...Array.from({ length: REPLICAS }, (_, i) =>
      started(startCarteHttp({ ...replicaSetup, dataDir: `${replicaSetup.dataDir}-${i + 1}` }, dir)),
    ),
  ]);
  const proxy: Haproxy = await startHaproxy(
    dir,
    replicas.map((r) => r.url),
  );
  stops.push(() => proxy.stop());
  return [
    { arm: 'sqlite', url: a.url, token: a.token, cartePids: [a.pid] },
    { arm: 'postgres', url: b.url, token: b.token, cartePids: [b.pid] },
    {
      arm: 'replicas',
      url: proxy.url,
      token: replicas[0]!.token,
      cartePids: replicas.map((r) => r.pid),
      haproxyPid: proxy.pid,
    },
  ];
}

async function runSpec(
  spec: { sessions: number; era: 'modern' | 'legacy' },
  served: readonly Served[],
  pgServer: PgServer,
  opts: StoreOptions,
): Promise<StoreRow> {
  const closes: (() => Promise<void>)[] = [];
  const loads: RawLoad[] = [];
  try {
    const arms = [];
    for (const s of served) {
      const target = { url: s.url, era: spec.era, token: s.token, key: KEY };
      const recorded = await Promise.all(Array.from({ length: spec.sessions }, () => recordCall(target)));
      closes.push(...recorded.map((r) => r.close));
      const conns: RawConnection[] = recorded.map((r) => r.connection);
      const load = await RawLoad.start(conns, opts.processes);
      loads.push(load);
      arms.push({ served: s, load, stats: emptyStats(), cpu: zeroCpu() });
    }
    for (const a of arms) await a.load.segment(opts.warmUpMs);
    const segment = opts.durationMs / opts.rounds;
    for (let r = 0; r < opts.rounds; r++) {
      for (const a of arms) {
        const pids = pidsOf(a.served);
        const before = readCpu(pids, pgServer);
        const run = await a.load.segment(segment);
        const after = readCpu(pids, pgServer);
        a.cpu.client += run.cpuMs;
        a.cpu.carte += after.carte - before.carte;
        a.cpu.carteSystem += after.carteSystem - before.carteSystem;
        a.cpu.upstream += after.upstream - before.upstream;
        a.cpu.haproxy += after.haproxy - before.haproxy;
        a.cpu.postgres += cpuSpent(before.postgres, after.postgres);
        a.stats = mergeStats(a.stats, run.stats);
      }
    }
    return { ...spec, arms: arms.map((a) => ({ arm: a.served.arm, stats: a.stats, cpu: a.cpu })) };
  } finally {
    await Promise.all(loads.map((l) => l.stop()));
    await Promise.all(closes.map((c) => c().catch(() => undefined)));
  }
}

const zeroCpu = (): StoreCpu => ({
  client: 0,
  carte: 0,
  carteSystem: 0,
  upstream: 0,
  haproxy: 0,
  postgres: 0,
});

/** Carte's pids, the everything processes under them (read each segment: a crash restarts one), HAProxy's. */
function pidsOf(s: Served): { carte: number[]; upstream: number[]; haproxy: number[] } {
  const upstream = s.cartePids.flatMap((p) =>
    childrenOf(p)
      .filter((c) => c.cmd.includes('server-everything'))
      .map((c) => c.pid),
  );
  return { carte: s.cartePids, upstream, haproxy: s.haproxyPid === undefined ? [] : [s.haproxyPid] };
}

function readCpu(
  pids: { carte: number[]; upstream: number[]; haproxy: number[] },
  pgServer: PgServer,
): Omit<StoreCpu, 'client' | 'postgres'> & { postgres: Map<number, number> } {
  const sum = (xs: number[], read = cpuTimeMs) => xs.reduce((a, p) => a + read(p), 0);
  return {
    carte: sum(pids.carte),
    carteSystem: sum(pids.carte, systemTimeMs),
    upstream: sum(pids.upstream),
    haproxy: sum(pids.haproxy),
    postgres: pgServer.cpuMs(),
  };
}
