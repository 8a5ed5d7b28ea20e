// Part `pg`'s markdown: one table per row of sessions, then the issue 26 targets as PASS/FAIL.
import { ms, quantile } from '../core/stats.js';
import { table } from '../core/report.js';
import { REPLICAS, type StoreArm, type StoreArmName, type StoreRow } from './store-arms.js';

/** Issue 26, item 8: Carte's CPU per call on PostgreSQL at most this times its CPU on SQLite, same run. */
export const PG_CPU_RATIO_MAX = 1.3;
/** Issue 26, item 8: three replicas behind HAProxy serve at least this many calls/s ... */
export const REPLICAS_CALLS_PER_S_MIN = 1000;
/** ... with p99 latency under this, ms. */
export const REPLICAS_P99_MAX_MS = 50;

const LABELS: Record<StoreArmName, string> = {
  sqlite: '(a) one Carte, SQLite',
  postgres: '(b) one Carte, PostgreSQL',
  replicas: `(c) ${REPLICAS} replicas, one PostgreSQL, HAProxy`,
};

export interface StoreFigures {
  callsPerS: number;
  p50: number;
  p99: number;
  /** CPU µs per successful call, per group of processes. */
  us: {
    carte: number;
    carteSystem: number;
    postgres: number;
    haproxy: number;
    upstream: number;
    client: number;
  };
}

export function figures(a: StoreArm): StoreFigures {
  const s = a.stats;
  const per = (cpuMs: number) => (s.ok ? (cpuMs / s.ok) * 1000 : Number.NaN);
  return {
    callsPerS: (s.ok / s.elapsedMs) * 1000,
    p50: quantile(s.latencies, 0.5),
    p99: quantile(s.latencies, 0.99),
    us: {
      carte: per(a.cpu.carte),
      carteSystem: per(a.cpu.carteSystem),
      postgres: per(a.cpu.postgres),
      haproxy: per(a.cpu.haproxy),
      upstream: per(a.cpu.upstream),
      client: per(a.cpu.client),
    },
  };
}

const us = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const errors = (a: StoreArm) =>
  a.stats.errors === 0
    ? '0'
    : `${a.stats.errors} (${Object.entries(a.stats.errorKinds)
        .map(([k, n]) => `${k}: ${n}`)
        .join('; ')})`;

export function storeTables(rows: readonly StoreRow[]): string {
  return rows.map((r) => `${storeTable(r)}\n\n${verdicts(r).join('\n')}`).join('\n\n');
}

function storeTable(r: StoreRow): string {
  return table(
    [
      `${r.sessions} sessions, ${r.era} era`,
      'calls/s',
      'p50 ms',
      'p99 ms',
      'errors',
      'Carte CPU µs/call (kernel)',
      'PostgreSQL µs/call',
      'HAProxy µs/call',
      'everything µs/call',
      'load generator µs/call',
    ],
    r.arms.map((a) => {
      const f = figures(a);
      return [
        LABELS[a.arm],
        f.callsPerS.toFixed(0),
        ms(f.p50),
        ms(f.p99),
        errors(a),
        `${us(f.us.carte)} (${us(f.us.carteSystem)})`,
        us(f.us.postgres),
        a.arm === 'replicas' ? us(f.us.haproxy) : '-',
        us(f.us.upstream),
        us(f.us.client),
      ];
    }),
  );
}

const verdict = (ok: boolean) => (ok ? 'PASS' : '**FAIL**');

/** The targets of issue 26, item 8, for one row. */
export function verdicts(r: StoreRow): string[] {
  const find = (name: StoreArmName) => r.arms.find((a) => a.arm === name);
  const [a, b, c] = [find('sqlite'), find('postgres'), find('replicas')].map((x) => x && figures(x));
  const out: string[] = [];
  if (a && b) {
    const cpu = b.us.carte / a.us.carte;
    const withDb = (b.us.carte + b.us.postgres) / (a.us.carte + a.us.postgres);
    out.push(
      `- Carte's CPU per call on PostgreSQL / on SQLite: ${cpu.toFixed(2)} (target ≤ ${PG_CPU_RATIO_MAX}): ${verdict(cpu <= PG_CPU_RATIO_MAX)}; with PostgreSQL's own CPU added to both sides, ${withDb.toFixed(2)}.`,
    );
  }
  if (c) {
    const ok = c.callsPerS >= REPLICAS_CALLS_PER_S_MIN && c.p99 < REPLICAS_P99_MAX_MS;
    out.push(
      `- ${REPLICAS} replicas behind HAProxy: ${c.callsPerS.toFixed(0)} calls/s at p99 ${ms(c.p99)} ms (target ≥ ${REPLICAS_CALLS_PER_S_MIN.toLocaleString('en')} at p99 < ${REPLICAS_P99_MAX_MS} ms): ${verdict(ok)}; Carte ${us(c.us.carte)} µs a call for the ${REPLICAS} together, HAProxy ${us(c.us.haproxy)}.`,
    );
  }
  return out;
}

export const STORE_NOTE = `Part \`pg\`: the raw load generator (part \`raw\`) against three arms in alternating segments, each with everything over stdio behind every Carte: (a) one \`carte serve --http\` on SQLite, (b) one on a scratch PostgreSQL database (\`CARTE_DATABASE_URL\`), (c) ${REPLICAS} replicas on another scratch database behind HAProxy (docs/operations.md's backend: round robin, sticky by \`Mcp-Session-Id\`, \`/readyz\` checks). Carte's CPU is every Carte process of the arm; PostgreSQL's is its shared processes (postmaster, WAL writer, checkpointer, ...) and the backends of the bench's databases during the arm's segments, so the SQLite arm shows their idle cost. Everything shares the machine's CPUs.`;
