// Part `peers` of bench:load (issue 28, item 4): Carte's HTTP face (auth, audit and metrics on)
// against two other gateways that serve a stdio server over Streamable HTTP, mcp-proxy and
// supergateway, and the bare `floor` proxy, all in front of everything over stdio, under the same
// raw load generator (raw-load.ts) in alternating segments. Each arm is smoke-tested first.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cpuTimeMs, descendantsOf } from './proc-info.js';
import { floorConnection } from './http-floor.js';
import { PEER_ARMS, startPeer, type Era, type PeerArmName, type PeerServer } from './peer-servers.js';
import { RawLoad, endSession, recordCall, type RawConnection } from './raw-load.js';
import { emptyStats, mergeStats, type LoopStats } from './workload.js';

export interface PeerOptions {
  durationMs: number;
  rounds: number;
  warmUpMs: number;
  /** Load-generator processes per arm. */
  processes: number;
}

/** CPU ms during an arm's segments. */
export interface PeerCpu {
  /** The gateway process alone. */
  gateway: number;
  /** The everything process(es) below it (supergateway: one per session). */
  upstream: number;
  /** The load generator's workers. */
  client: number;
}

export interface PeerArm {
  arm: PeerArmName;
  /** The era its calls spoke (none for the floor). */
  era?: Era;
  /** The everything processes below the gateway during the run. */
  upstreams: number;
  stats: LoopStats;
  cpu: PeerCpu;
}

export interface PeerRow {
  sessions: number;
  /** The era asked for; an arm that cannot serve it runs in the one it can (PeerArm.era). */
  era: Era;
  arms: PeerArm[];
}

const KEY = 'everything/echo';

/** Starts the four arms, smoke-tests each, then runs each spec over all of them; stops them all. */
export async function peerRows(
  dir: string,
  specs: readonly { sessions: number; era: Era }[],
  opts: PeerOptions,
  step: (what: string) => void,
): Promise<{ rows: PeerRow[]; commands: Record<PeerArmName, string> }> {
  const servers: PeerServer[] = [];
  try {
    step('peers: starting Carte, mcp-proxy, supergateway and the floor');
    const started = await Promise.allSettled(PEER_ARMS.map((arm) => startPeer(arm, dir)));
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    for (const s of servers) await smoke(s);
    const rows: PeerRow[] = [];
    for (const spec of specs) {
      step(`peers (${spec.era} era), ${spec.sessions} session(s)`);
      rows.push(await runSpec(spec, servers, opts));
    }
    const commands = Object.fromEntries(servers.map((s) => [s.arm, s.command]));
    return { rows, commands: commands as Record<PeerArmName, string> };
  } finally {
    for (const s of servers.reverse()) await s.stop().catch(() => undefined);
  }
}

/**
 * One session (initialize, then tools/call echo) through the arm, and a 2026-07-28 call where it
 * serves that era; the floor gets one bare POST. Throws naming the arm unless each echo comes back.
 */
async function smoke(s: PeerServer): Promise<void> {
  const eras: Era[] = s.eras.length === 0 ? [] : ['legacy', ...s.eras.filter((e) => e !== 'legacy')];
  try {
    if (eras.length === 0) await smokeFloor(s.url);
    for (const era of eras) await smokeSession(s, era);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`peers: arm ${s.arm} (${s.url}) failed its smoke test: ${why}`, { cause: err });
  }
}

async function smokeSession(s: PeerServer, era: Era): Promise<void> {
  const message = `smoke ${s.arm} ${era}`;
  const client = new Client(
    { name: 'carte-bench-peers', version: '0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const headers: Record<string, string> = s.token ? { authorization: `Bearer ${s.token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers } });
  await client.connect(transport);
  try {
    const result = s.token
      ? await client.callTool({ name: 'call_tool', arguments: { key: KEY, arguments: { message } } })
      : await client.callTool({ name: 'echo', arguments: { message } });
    const text = JSON.stringify(result.content);
    if (result.isError === true || !text.includes(message))
      throw new Error(
        `${era} era: echo of "${message}" came back as ${JSON.stringify(result).slice(0, 300)}`,
      );
  } finally {
    await endSession(client, transport).catch(() => undefined);
  }
}

async function smokeFloor(url: string): Promise<void> {
  const c = floorConnection(url);
  const res = await fetch(url, {
    method: 'POST',
    headers: c.headers,
    body: `${c.bodyBefore}1${c.bodyAfter}`,
  });
  const text = await res.text();
  if (res.status !== 200 || !text.includes('raw load'))
    throw new Error(`a tools/call POST came back as HTTP ${res.status}: ${text.slice(0, 300)}`);
}

/** The era an arm's calls speak for a spec: the one asked for, else the best it serves. */
const eraFor = (s: PeerServer, wanted: Era): Era | undefined =>
  s.eras.length === 0 ? undefined : s.eras.includes(wanted) ? wanted : s.eras[0];

async function runSpec(
  spec: { sessions: number; era: Era },
  servers: readonly PeerServer[],
  opts: PeerOptions,
): Promise<PeerRow> {
  const closes: (() => Promise<void>)[] = [];
  const loads: RawLoad[] = [];
  try {
    const arms = [];
    for (const s of servers) {
      const era = eraFor(s, spec.era);
      const conns = await connections(s, era, spec.sessions, closes);
      const load = await RawLoad.start(conns, opts.processes);
      loads.push(load);
      const arm: PeerArm = { arm: s.arm, upstreams: 0, stats: emptyStats(), cpu: zeroCpu() };
      arms.push({ server: s, load, arm: era === undefined ? arm : { ...arm, era } });
    }
    for (const a of arms) await a.load.segment(opts.warmUpMs);
    const segment = opts.durationMs / opts.rounds;
    for (let r = 0; r < opts.rounds; r++) {
      for (const { server, load, arm } of arms) {
        // Read each segment: supergateway starts an everything per session, Carte restarts a crashed one.
        const upstream = upstreamPids(server.pid);
        const sum = (pids: number[]) => pids.reduce((t, p) => t + cpuTimeMs(p), 0);
        const before = { gateway: cpuTimeMs(server.pid), upstream: sum(upstream) };
        const run = await load.segment(segment);
        arm.cpu.gateway += cpuTimeMs(server.pid) - before.gateway;
        arm.cpu.upstream += sum(upstream) - before.upstream;
        arm.cpu.client += run.cpuMs;
        arm.upstreams = Math.max(arm.upstreams, upstream.length);
        arm.stats = mergeStats(arm.stats, run.stats);
      }
    }
    return { ...spec, arms: arms.map((a) => a.arm) };
  } finally {
    await Promise.all(loads.map((l) => l.stop()));
    await Promise.all(closes.map((c) => c().catch(() => undefined)));
  }
}

/** One recorded call per session (its session stays open until `closes` run); the floor needs none. */
async function connections(
  s: PeerServer,
  era: Era | undefined,
  sessions: number,
  closes: (() => Promise<void>)[],
): Promise<RawConnection[]> {
  const n = Array.from({ length: sessions });
  if (era === undefined) return n.map(() => floorConnection(s.url));
  const target = { url: s.url, era, key: KEY, ...(s.token && { token: s.token }) };
  const recorded = await Promise.all(n.map(() => recordCall(target)));
  closes.push(...recorded.map((r) => r.close));
  return recorded.map((r) => r.connection);
}

const upstreamPids = (pid: number): number[] =>
  descendantsOf(pid)
    .filter((p) => p.cmd.includes('server-everything') && !p.cmd.startsWith('/bin/sh'))
    .map((p) => p.pid);

const zeroCpu = (): PeerCpu => ({ gateway: 0, upstream: 0, client: 0 });
