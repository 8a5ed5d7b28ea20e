// A load generator that can offer 2,000 calls/s on this machine (issue 16, item 6). The SDK's
// HTTP client costs 1.2-1.9 ms of CPU per call, so one bench process could not offer more than a
// few hundred calls/s: here an SDK client makes one real call while its fetch is recorded, then
// worker processes (raw-worker.ts) replay that POST over keep-alive node:http connections with a
// fresh JSON-RPC id each time. A legacy-era connection replays its own session's request (its
// `Mcp-Session-Id`); the SDK client that opened the session stays open until the run ends.
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { emptyStats, mergeStats, type LoopStats } from './workload.js';

/** One recorded `tools/call` POST, with the JSON-RPC id cut out of the body. */
export interface RawConnection {
  url: string;
  headers: Record<string, string>;
  bodyBefore: string;
  bodyAfter: string;
}

/** What a worker measured in one segment. */
export interface RawSegment {
  latencies: number[];
  errors: number;
  errorKinds: Record<string, number>;
  elapsedMs: number;
  /** The worker's own user + system CPU during the segment. */
  cpuMs: number;
}

export type WorkerCommand =
  { type: 'setup'; connections: RawConnection[] } | { type: 'run'; durationMs: number } | { type: 'exit' };

type WorkerReply = { type: 'ready' } | { type: 'done'; segment: RawSegment };

/** Where a recorded call goes: Carte's /mcp (`call_tool` with the key) or a server's own (the tool by name). */
export interface RawTarget {
  url: string;
  era: 'modern' | 'legacy';
  /** Carte's bearer token; absent for the direct arm. */
  token?: string;
  key: string;
}

/** Headers node:http sets itself, or that must not be replayed. */
const DROPPED = new Set(['content-length', 'host', 'connection', 'keep-alive']);
/** Stands for the JSON-RPC id while the body is cut in two around it. */
const ID_MARK = -7_654_321;

/** Opens an SDK client, makes one call while recording its POST, and keeps the client (its session) open. */
export async function recordCall(
  target: RawTarget,
): Promise<{ connection: RawConnection; close: () => Promise<void> }> {
  let seen: { url: string; headers: Headers; body: string } | undefined;
  const recording = (url: string | URL, init?: RequestInit): Promise<Response> => {
    const body = init?.body;
    if (init?.method === 'POST' && typeof body === 'string' && body.includes('"tools/call"'))
      seen = { url: String(url), headers: new Headers(init.headers), body };
    return fetch(url, init);
  };
  const modern = target.era === 'modern';
  const client = new Client(
    { name: 'carte-bench-raw', version: '0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const headers: Record<string, string> = target.token ? { authorization: `Bearer ${target.token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(target.url), {
    requestInit: { headers },
    fetch: recording,
  });
  await client.connect(transport);
  const viaCarte = target.token !== undefined;
  const name = viaCarte ? 'call_tool' : target.key.slice(target.key.indexOf('/') + 1);
  const message = { message: 'raw load' };
  const args = viaCarte ? { key: target.key, arguments: message } : message;
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true) throw new Error(`the recorded call failed: ${JSON.stringify(result)}`);
  if (!seen) throw new Error(`no tools/call POST was seen going to ${target.url}`);
  return { connection: cutBody(seen), close: () => endSession(client, transport) };
}

/**
 * Ends a legacy session with DELETE before closing (a server that starts a process per session,
 * like supergateway, stops it then); a 2026-07-28 client has no session to end.
 */
export async function endSession(client: Client, transport: StreamableHTTPClientTransport): Promise<void> {
  if (transport.sessionId !== undefined) await transport.terminateSession().catch(() => undefined);
  await client.close();
}

function cutBody(seen: { url: string; headers: Headers; body: string }): RawConnection {
  const msg = JSON.parse(seen.body) as Record<string, unknown>;
  const [bodyBefore, bodyAfter, extra] = JSON.stringify({ ...msg, id: ID_MARK }).split(String(ID_MARK));
  if (bodyBefore === undefined || bodyAfter === undefined || extra !== undefined)
    throw new Error(`cannot cut the id out of the recorded body: ${seen.body}`);
  const headers: Record<string, string> = {};
  seen.headers.forEach((value, name) => {
    if (!DROPPED.has(name)) headers[name] = value;
  });
  return { url: seen.url, headers, bodyBefore, bodyAfter };
}

const WORKER = join(dirname(fileURLToPath(import.meta.url)), 'raw-worker.ts');

/** Worker processes sharing the connections round-robin; each segment runs them all at once. */
export class RawLoad {
  private constructor(private readonly workers: ChildProcess[]) {}

  static async start(connections: readonly RawConnection[], processes: number): Promise<RawLoad> {
    const n = Math.max(1, Math.min(processes, connections.length));
    // The parent's execArgv carries tsx's loader, so the worker can be TypeScript too.
    const workers = Array.from({ length: n }, () =>
      fork(WORKER, [], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    );
    const load = new RawLoad(workers);
    await Promise.all(
      workers.map((w, i) =>
        load.ask(w, { type: 'setup', connections: connections.filter((_, j) => j % n === i) }),
      ),
    );
    return load;
  }

  get pids(): number[] {
    return this.workers.map((w) => w.pid!);
  }

  /** Every worker loops for `durationMs`; their latencies, errors and CPU are merged. */
  async segment(durationMs: number): Promise<{ stats: LoopStats; cpuMs: number }> {
    const replies = await Promise.all(this.workers.map((w) => this.ask(w, { type: 'run', durationMs })));
    let stats = emptyStats();
    let cpuMs = 0;
    let elapsedMs = 0;
    for (const r of replies) {
      if (r.type !== 'done') throw new Error(`a load worker answered ${r.type} to run`);
      const s = r.segment;
      const ok = s.latencies.length;
      const part = { calls: ok + s.errors, ok, errors: s.errors, errorKinds: s.errorKinds };
      stats = mergeStats(stats, { ...part, latencies: s.latencies, elapsedMs: 0 });
      cpuMs += s.cpuMs;
      elapsedMs = Math.max(elapsedMs, s.elapsedMs);
    }
    return { stats: { ...stats, elapsedMs }, cpuMs };
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.exitCode !== null || !w.connected) return resolve();
            w.once('exit', () => resolve());
            w.send({ type: 'exit' } satisfies WorkerCommand);
          }),
      ),
    );
  }

  private ask(w: ChildProcess, cmd: WorkerCommand): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`a load worker exited with ${code}`));
      w.once('exit', onExit);
      w.once('message', (reply: WorkerReply) => {
        w.off('exit', onExit);
        resolve(reply);
      });
      w.send(cmd);
    });
  }
}
