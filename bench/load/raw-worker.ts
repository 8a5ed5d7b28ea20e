// One load-generator process of raw-load.ts (forked with the parent's tsx loader): replays
// recorded `tools/call` POSTs over keep-alive connections, one call in flight per connection,
// with nothing of the MCP SDK on the path (the SDK's HTTP client costs 1.2-1.9 ms of CPU a call).
import { Agent, request } from 'node:http';
import type { RawConnection, RawSegment, WorkerCommand } from './raw-load.js';

interface Live {
  conn: RawConnection;
  agent: Agent;
  url: URL;
}

let live: Live[] = [];
let seq = 0;

/** One POST with a fresh JSON-RPC id; resolves to an error kind, or null when the call succeeded. */
function post(c: Live): Promise<string | null> {
  const body = `${c.conn.bodyBefore}${++seq}${c.conn.bodyAfter}`;
  return new Promise((resolve) => {
    const req = request(
      {
        agent: c.agent,
        host: c.url.hostname,
        port: c.url.port,
        path: c.url.pathname,
        method: 'POST',
        headers: { ...c.conn.headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(verdict(res.statusCode ?? 0, text)));
        res.on('error', (err) => resolve(err.message.slice(0, 80)));
      },
    );
    req.on('error', (err) => resolve(err.message.slice(0, 80)));
    req.end(body);
  });
}

/** A JSON-RPC result that is not a tool error; JSON and SSE answers both carry the JSON text. */
function verdict(status: number, text: string): string | null {
  if (status !== 200) return `HTTP ${status}`;
  if (!text.includes('"result"')) return text.includes('"error"') ? 'JSON-RPC error' : 'no result';
  return text.includes('"isError":true') ? 'tool error' : null;
}

async function run(durationMs: number): Promise<RawSegment> {
  const latencies: number[] = [];
  const errorKinds: Record<string, number> = {};
  let errors = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(
    live.map(async (c) => {
      while (performance.now() < deadline) {
        const t = performance.now();
        const failed = await post(c);
        if (failed === null) latencies.push(performance.now() - t);
        else {
          errors++;
          errorKinds[failed] = (errorKinds[failed] ?? 0) + 1;
        }
      }
    }),
  );
  const elapsedMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { latencies, errors, errorKinds, elapsedMs, cpuMs: (used.user + used.system) / 1000 };
}

process.on('message', (cmd: WorkerCommand) => {
  if (cmd.type === 'setup') {
    live = cmd.connections.map((conn) => ({
      conn,
      agent: new Agent({ keepAlive: true, maxSockets: 1 }),
      url: new URL(conn.url),
    }));
    process.send!({ type: 'ready' });
  } else if (cmd.type === 'run') {
    void run(cmd.durationMs).then((segment) => process.send!({ type: 'done', segment }));
  } else {
    for (const c of live) c.agent.destroy();
    process.disconnect();
  }
});
