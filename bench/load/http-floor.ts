// Part `floor` of bench:load: what any Node HTTP face costs per call, whatever it does, under the
// same raw load generator as part `raw`. `bare` (http-floor-server.mjs) reads each POST, parses it
// and answers; `proxy` also sends it to everything over stdio and returns the answer, with no SDK,
// no checks and no audit. Their CPU per call against the stdio upstream's, measured in the same
// segments, bounds the ratio issue 16 asks of Carte over HTTP from below.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceEntry } from '../core/paths.js';
import { childrenOf, cpuTimeMs } from './proc-info.js';
import { RawLoad, type RawConnection } from './raw-load.js';

export interface FloorRow {
  mode: 'bare' | 'proxy';
  sessions: number;
  callsPerS: number;
  errors: number;
  /** Server process CPU per successful call, µs. */
  serverUs: number;
  /** The stdio upstream's CPU per call (proxy only), µs. */
  upstreamUs?: number;
}

const SERVER = join(dirname(fileURLToPath(import.meta.url)), 'http-floor-server.mjs');

/** One floor server, listening. */
export async function startFloor(mode: 'bare' | 'proxy'): Promise<{ child: ChildProcess; url: string }> {
  const args = [SERVER, mode, ...(mode === 'proxy' ? [referenceEntry('server-everything')] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (c: Buffer) => {
      seen += c.toString();
      const m = /listening (\d+)/.exec(seen);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the ${mode} floor server exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

/** The floor's `tools/call` POST: it needs no session, so nothing is recorded. */
export function floorConnection(url: string): RawConnection {
  return {
    url,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    bodyBefore: '{"jsonrpc":"2.0","id":',
    bodyAfter: ',"method":"tools/call","params":{"name":"echo","arguments":{"message":"raw load"}}}',
  };
}

export async function httpFloorRows(
  sessions: readonly number[],
  opts: { durationMs: number; warmUpMs: number; processes: number },
  step: (what: string) => void,
): Promise<FloorRow[]> {
  const rows: FloorRow[] = [];
  for (const mode of ['bare', 'proxy'] as const) {
    for (const n of sessions) {
      step(`HTTP floor (${mode}), ${n} session(s)`);
      const floor = await startFloor(mode);
      const load = await RawLoad.start(
        Array.from({ length: n }, () => floorConnection(floor.url)),
        opts.processes,
      );
      try {
        await load.segment(opts.warmUpMs);
        const pid = floor.child.pid!;
        const upstream = childrenOf(pid).map((c) => c.pid);
        const sum = (pids: number[]) => pids.reduce((a, p) => a + cpuTimeMs(p), 0);
        const before = { server: cpuTimeMs(pid), upstream: sum(upstream) };
        const { stats } = await load.segment(opts.durationMs);
        const ok = Math.max(1, stats.ok);
        rows.push({
          mode,
          sessions: n,
          callsPerS: (stats.ok / stats.elapsedMs) * 1000,
          errors: stats.errors,
          serverUs: ((cpuTimeMs(pid) - before.server) * 1000) / ok,
          ...(mode === 'proxy' ? { upstreamUs: ((sum(upstream) - before.upstream) * 1000) / ok } : {}),
        });
      } finally {
        await load.stop();
        floor.child.kill('SIGTERM');
      }
    }
  }
  return rows;
}

export function floorTable(rows: readonly FloorRow[]): string {
  const head = [
    '| server | sessions | calls/s | errors | server CPU per call, µs | stdio upstream CPU per call, µs | server / upstream |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  return [
    ...head,
    ...rows
      .map((r) =>
        [
          r.mode === 'bare' ? 'bare node:http, answers itself' : 'bare node:http, proxies to stdio',
          r.sessions,
          r.callsPerS.toFixed(0),
          r.errors,
          r.serverUs.toFixed(0),
          r.upstreamUs?.toFixed(0) ?? '-',
          r.upstreamUs ? `${(r.serverUs / r.upstreamUs).toFixed(2)}x` : '-',
        ].join(' | '),
      )
      .map((line) => `| ${line} |`),
  ].join('\n');
}
