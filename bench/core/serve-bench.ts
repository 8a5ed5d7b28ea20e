// (c) `carte serve` start-up with a synced catalog: spawn to the first `tools/list` answer, and to
// the first `search_tools` answer (which builds the search index; asked with `maxTokens`, so it
// loads the tokenizer), over raw JSON-RPC on stdio, and the process's memory (VmRSS and its peak
// VmHWM from /proc, Linux only) right after that answer and again once it settles, SETTLE_MS later:
// the tokens-saved meter loads the tokenizer and counts off the request path, after the answer
// (issue 28: < 150 MiB with the 7k-tool catalog). Node gets the flags every launch line Carte writes
// gives it (SERVE_NODE_FLAGS), so the figure is the one a client's entry shows.
import { spawn } from 'node:child_process';
import { SERVE_NODE_FLAGS } from '../../src/cli/shared/snippet.js';
import { memoryOf } from '../load/proc-info.js';
import { BIN, cleanEnv } from './paths.js';
import { median, ms } from './stats.js';
import { table } from './report.js';

export interface ServeRun {
  toolsListMs: number;
  firstSearchMs: number;
  exitCode: number | null;
  /** MiB right after the first search answer; undefined where /proc is not there. */
  rssMiB?: number;
  /** MiB SETTLE_MS after it, when the work it started off the request path is done. */
  settledMiB?: number;
  peakMiB?: number;
}

/** How long after the first search answer the settled RSS is read. */
export const SETTLE_MS = 1000;
const BUDGET = 1000;

const send = (m: object) => `${JSON.stringify(m)}\n`;
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'carte-bench', version: '0' },
  },
};

function settledOf(pid: number): { settledMiB: number; peakMiB: number } {
  const { rssMiB, peakMiB } = memoryOf(pid);
  return { settledMiB: rssMiB, peakMiB };
}

/** One `carte serve` process: writes the handshake at once, times the answers, then closes stdin. */
export function serveOnce(
  args: readonly string[],
  cwd: string,
  nodeFlags: readonly string[] = SERVE_NODE_FLAGS,
  timeoutMs = 60_000,
): Promise<ServeRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [...nodeFlags, BIN, 'serve', ...args], {
      cwd,
      env: cleanEnv(),
      stdio: 'pipe',
    });
    const times = new Map<number, number>();
    let memory: { rssMiB: number; peakMiB: number; settledMiB?: number } | undefined;
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`carte serve gave no answer within ${timeoutMs} ms: ${stderr.slice(-500)}`));
    }, timeoutMs);
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      buffer += c.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const id = (JSON.parse(line) as { id?: number }).id;
        if (typeof id === 'number' && !times.has(id)) times.set(id, performance.now() - start);
        if (id === 2) {
          const call = {
            name: 'search_tools',
            arguments: { query: 'read a file from disk', maxTokens: BUDGET },
          };
          child.stdin.write(send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: call }));
        }
        if (id === 3) {
          const pid = child.pid;
          memory = pid === undefined ? undefined : memoryOf(pid);
          setTimeout(() => {
            if (pid !== undefined && memory) memory = { ...memory, ...settledOf(pid) };
            child.stdin.end();
          }, SETTLE_MS);
        }
      }
    });
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      const toolsListMs = times.get(2);
      const searchMs = times.get(3);
      if (toolsListMs === undefined || searchMs === undefined) {
        reject(new Error(`carte serve exited (${code}) before answering: ${stderr.slice(-500)}`));
        return;
      }
      resolve({ toolsListMs, firstSearchMs: searchMs, exitCode: code, ...(memory ?? {}) });
    });
    child.stdin.write(send(INIT));
    child.stdin.write(send({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    child.stdin.write(send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  });
}

export interface ServeBench {
  label: string;
  runs: ServeRun[];
}

export async function benchServe(
  label: string,
  args: readonly string[],
  cwd: string,
  runs: number,
  nodeFlags: readonly string[] = SERVE_NODE_FLAGS,
): Promise<ServeBench> {
  const list: ServeRun[] = [];
  for (let i = 0; i < runs; i++) list.push(await serveOnce(args, cwd, nodeFlags));
  return { label, runs: list };
}

/**
 * The same catalog with SERVE_NODE_FLAGS and with node's defaults, one run of each in turn, so the
 * flags' effect is measured in one run on a noisy machine.
 */
export async function benchServeFlags(
  label: string,
  args: readonly string[],
  cwd: string,
  runs: number,
): Promise<[ServeBench, ServeBench]> {
  const flagged: ServeRun[] = [];
  const bare: ServeRun[] = [];
  for (let i = 0; i < runs; i++) {
    flagged.push(await serveOnce(args, cwd));
    bare.push(await serveOnce(args, cwd, []));
  }
  return [
    { label: `${label}, \`${SERVE_NODE_FLAGS.join(' ')}\` (as launched)`, runs: flagged },
    { label: `${label}, node's defaults (baseline)`, runs: bare },
  ];
}

export function serveTable(benches: readonly ServeBench[]): string {
  return table(
    [
      'catalog',
      'spawn to `tools/list` answer p50 ms',
      'min ms',
      'spawn to first `search_tools` answer p50 ms',
      'min ms',
      'RSS right after it MiB (median)',
      `RSS ${SETTLE_MS / 1000} s later MiB (median)`,
      'peak RSS MiB (max)',
    ],
    benches.map((b) => {
      const list = b.runs.map((r) => r.toolsListMs);
      const search = b.runs.map((r) => r.firstSearchMs);
      const rss = b.runs.flatMap((r) => (Number.isFinite(r.rssMiB) ? [r.rssMiB!] : []));
      const settled = b.runs.flatMap((r) => (Number.isFinite(r.settledMiB) ? [r.settledMiB!] : []));
      const peak = b.runs.flatMap((r) => (Number.isFinite(r.peakMiB) ? [r.peakMiB!] : []));
      return [
        b.label,
        ms(median(list)),
        ms(Math.min(...list)),
        ms(median(search)),
        ms(Math.min(...search)),
        rss.length ? median(rss).toFixed(0) : '-',
        settled.length ? median(settled).toFixed(0) : '-',
        peak.length ? Math.max(...peak).toFixed(0) : '-',
      ];
    }),
  );
}
