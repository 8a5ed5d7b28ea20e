// Part `peers`' markdown: one table per row of sessions, then issue 28's target as PASS/FAIL.
import { ms, quantile } from '../core/stats.js';
import { table } from '../core/report.js';
import type { PeerArm, PeerRow } from './peers.js';
import type { PeerArmName } from './peer-servers.js';

/** Issue 28, item 4: Carte's CPU per call at most this times the best peer's, same run. */
export const PEER_CPU_RATIO_MAX = 0.4;

/** The arms the target compares Carte with (the floor is a yardstick, not a product). */
const PEERS: readonly PeerArmName[] = ['mcp-proxy', 'supergateway'];

const LABELS: Record<PeerArmName, string> = {
  carte: 'Carte (auth, audit, metrics)',
  'mcp-proxy': 'mcp-proxy 6.7.19',
  supergateway: 'supergateway 4.0.0 (stateful)',
  floor: 'floor (bare node:http proxy)',
};

export interface PeerFigures {
  callsPerS: number;
  p50: number;
  p99: number;
  /** CPU µs per successful call. */
  us: { gateway: number; upstream: number; client: number };
}

export function peerFigures(a: PeerArm): PeerFigures {
  const s = a.stats;
  const per = (cpuMs: number) => (s.ok ? (cpuMs / s.ok) * 1000 : Number.NaN);
  return {
    callsPerS: (s.ok / s.elapsedMs) * 1000,
    p50: quantile(s.latencies, 0.5),
    p99: quantile(s.latencies, 0.99),
    us: { gateway: per(a.cpu.gateway), upstream: per(a.cpu.upstream), client: per(a.cpu.client) },
  };
}

const us = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const errors = (a: PeerArm) =>
  a.stats.errors === 0
    ? '0'
    : `${a.stats.errors} (${Object.entries(a.stats.errorKinds)
        .map(([k, n]) => `${k}: ${n}`)
        .join('; ')})`;

export function peerTables(rows: readonly PeerRow[]): string {
  return rows.map((r) => `${peerTable(r)}\n\n${peerVerdicts(r).join('\n')}`).join('\n\n');
}

function peerTable(r: PeerRow): string {
  return table(
    [
      `${r.sessions} sessions, ${r.era} era`,
      'era spoken',
      'calls/s',
      'p50 ms',
      'p99 ms',
      'errors',
      'gateway CPU µs/call',
      'everything µs/call (processes)',
      'load generator µs/call',
    ],
    r.arms.map((a) => {
      const f = peerFigures(a);
      return [
        LABELS[a.arm],
        a.era ?? '-',
        f.callsPerS.toFixed(0),
        ms(f.p50),
        ms(f.p99),
        errors(a),
        us(f.us.gateway),
        `${us(f.us.upstream)} (${a.upstreams})`,
        us(f.us.client),
      ];
    }),
  );
}

/** Carte's CPU per call against the best peer's (issue 28's target) and against the floor's. */
export function peerVerdicts(r: PeerRow): string[] {
  const gateway = (name: PeerArmName) => {
    const a = r.arms.find((x) => x.arm === name);
    return a ? peerFigures(a).us.gateway : Number.NaN;
  };
  const carte = gateway('carte');
  const [best] = PEERS.map((p) => ({ p, us: gateway(p) }))
    .filter((x) => Number.isFinite(x.us))
    .sort((a, b) => a.us - b.us);
  if (!Number.isFinite(carte) || best === undefined) return [];
  const ratio = carte / best.us;
  const ok = ratio <= PEER_CPU_RATIO_MAX;
  return [
    `- Carte's CPU per call / the best peer's (${best.p}): ${ratio.toFixed(2)} (${us(carte)} against ${us(best.us)} µs; target ≤ ${PEER_CPU_RATIO_MAX}): ${ok ? 'PASS' : '**FAIL**'}.`,
    `- Carte's CPU per call / the floor's: ${(carte / gateway('floor')).toFixed(2)}.`,
  ];
}

export function peerNote(commands: Record<PeerArmName, string>): string {
  const list = Object.entries(commands)
    .map(([arm, cmd]) => `${arm}: \`${cmd}\``)
    .join('; ');
  return `Part \`peers\`: the raw load generator (part \`raw\`) against four gateways in alternating segments, each with its own everything over stdio behind it, each checked first with a session's initialize and an echo call (and a 2026-07-28 echo where it serves that era). Gateway CPU is the gateway process alone; everything's is the everything processes below it (supergateway starts one per session). supergateway speaks the 2025 era here: it hands a 2026-07-28 request to a fresh child unchanged and everything over stdio answers only the 2025 era, so a 2026 client falls back to a session. Started as: ${list}.`;
}
