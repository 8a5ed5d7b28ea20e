// (d) The first non-English queries of a `carte serve` holding a catalog (issue 29 item 2): after
// the first search answer (English, which builds or reads the index), a Chinese, a Japanese, a
// Spanish and a German query, each timed from request to answer, and the process's RSS after each
// (/proc, Linux only). Gloss files (the default) against CARTE_GLOSS_FILES=off, CC-CEDICT parsed
// and EDICT indexed in memory as before them, in the same run.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { SERVE_NODE_FLAGS } from '../../src/cli/shared/snippet.js';
import { memoryOf } from '../load/proc-info.js';
import { BIN, cleanEnv } from './paths.js';
import { median, ms } from './stats.js';
import { table } from './report.js';

/** The queries, in this order: "read the contents of a file" in each language. */
export const GLOSS_QUERIES = [
  ['Chinese', '读取文件的内容'],
  ['Japanese', 'ファイルの内容を読み込む'],
  ['Spanish', 'leer el contenido de un archivo'],
  ['German', 'den Inhalt einer Datei lesen'],
] as const;

export interface GlossRun {
  firstSearchMs: number;
  /** Per query of GLOSS_QUERIES: request to answer. */
  queryMs: number[];
  /** RSS after the first search, after each query, and SETTLE_MS after the last, in MiB (NaN without /proc). */
  rssMiB: number[];
  peakMiB: number;
}

/**
 * How long after the last answer RSS is read once more: the process keeps growing after its first
 * answers (about 50 MiB at 7k tools within 0.5 s of the first \`tools/list\`, with or without any
 * dictionary), which a reading right after an answer does not see.
 */
export const SETTLE_MS = 1500;

const send = (m: object) => `${JSON.stringify(m)}\n`;
const search = (id: number, query: string) =>
  send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_tools', arguments: { query } } });

/** One `carte serve`: the handshake, an English search, then the queries one after another. */
function glossOnce(args: readonly string[], cwd: string, env: Record<string, string>): Promise<GlossRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [...SERVE_NODE_FLAGS, BIN, 'serve', ...args], {
      cwd,
      env: cleanEnv(env),
      stdio: 'pipe',
    });
    const sent = new Map<number, number>();
    const took = new Map<number, number>();
    const rss: number[] = [];
    let peak = Number.NaN;
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const ask = (id: number, query: string) => {
      sent.set(id, performance.now());
      child.stdin.write(search(id, query));
    };
    const settle = () => {
      rss.push(child.pid === undefined ? Number.NaN : memoryOf(child.pid).rssMiB);
      child.stdin.end();
    };
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      buffer += c.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const id = (JSON.parse(buffer.slice(0, nl)) as { id?: number }).id;
        buffer = buffer.slice(nl + 1);
        if (typeof id !== 'number' || took.has(id)) continue;
        took.set(id, performance.now() - (sent.get(id) ?? start));
        if (id === 2) ask(3, 'read a file from disk');
        if (id < 3) continue;
        const memory = child.pid === undefined ? undefined : memoryOf(child.pid);
        rss.push(memory?.rssMiB ?? Number.NaN);
        peak = memory?.peakMiB ?? Number.NaN;
        const next = GLOSS_QUERIES[id - 3];
        if (next) ask(id + 1, next[1]);
        else setTimeout(settle, SETTLE_MS);
      }
    });
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      const first = took.get(3);
      const queryMs = GLOSS_QUERIES.map((_, i) => took.get(4 + i) ?? Number.NaN);
      if (first === undefined || queryMs.some(Number.isNaN)) {
        reject(new Error(`carte serve exited (${code}) before answering: ${stderr.slice(-500)}`));
        return;
      }
      resolve({ firstSearchMs: first, queryMs, rssMiB: rss, peakMiB: peak });
    });
    child.stdin.write(send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT }));
    child.stdin.write(send({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    child.stdin.write(send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  });
}

const INIT = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'carte-bench', version: '0' },
};

export interface GlossBench {
  label: string;
  runs: GlossRun[];
}

/**
 * Both ways, interleaved, `runs` times, with the cache dir (CARTE_CACHE_DIR) in the data dir, not
 * the user's; before the first run with gloss files, its `dictionaries/` is removed, so that run's
 * first search includes building them (once per dictionary version), reported apart.
 */
export async function benchGloss(
  target: { label: string; args: readonly string[]; cwd: string; dataDir: string },
  runs: number,
): Promise<{ benches: GlossBench[]; firstStart: GlossRun }> {
  const cache = join(target.dataDir, 'cache');
  rmSync(join(cache, 'dictionaries'), { recursive: true, force: true });
  const env = { CARTE_CACHE_DIR: cache };
  const firstStart = await glossOnce(target.args, target.cwd, env);
  const files: GlossRun[] = [];
  const memory: GlossRun[] = [];
  for (let i = 0; i < runs; i++) {
    memory.push(await glossOnce(target.args, target.cwd, { ...env, CARTE_GLOSS_FILES: 'off' }));
    files.push(await glossOnce(target.args, target.cwd, env));
  }
  return {
    benches: [
      { label: `${target.label}, dictionaries parsed in memory (before)`, runs: memory },
      { label: `${target.label}, gloss files (after)`, runs: files },
    ],
    firstStart,
  };
}

const mib = (values: number[]) => (values.some(Number.isNaN) ? '-' : median(values).toFixed(0));

export function glossTable(benches: readonly GlossBench[]): string {
  return table(
    [
      'serve',
      'first search ms',
      ...GLOSS_QUERIES.map(([lang]) => `then ${lang} ms`),
      'RSS after first search MiB',
      `after all ${GLOSS_QUERIES.length} MiB`,
      'added MiB',
      `${SETTLE_MS / 1000} s later MiB`,
      'peak MiB (max)',
    ],
    benches.map((b) => {
      const at = (i: number) => b.runs.map((r) => r.rssMiB[i] ?? Number.NaN);
      const added = b.runs.map(
        (r) => (r.rssMiB[GLOSS_QUERIES.length] ?? Number.NaN) - (r.rssMiB[0] ?? Number.NaN),
      );
      return [
        b.label,
        ms(median(b.runs.map((r) => r.firstSearchMs))),
        ...GLOSS_QUERIES.map((_, i) => ms(median(b.runs.map((r) => r.queryMs[i]!)))),
        mib(at(0)),
        mib(at(GLOSS_QUERIES.length)),
        mib(added),
        mib(at(GLOSS_QUERIES.length + 1)),
        Math.max(...b.runs.map((r) => r.peakMiB)).toFixed(0),
      ];
    }),
  );
}

/** The first start of a data dir without gloss files: its first search includes building them. */
export function glossFirstStartLine(run: GlossRun): string {
  return (
    `First start without \`dictionaries/\` (gloss files built in a child process once per dictionary ` +
    `version): first search ${ms(run.firstSearchMs)} ms, then Chinese ${ms(run.queryMs[0]!)} ms, ` +
    `Japanese ${ms(run.queryMs[1]!)} ms; ` +
    `RSS ${run.rssMiB.map((r) => r.toFixed(0)).join(' → ')} MiB, peak ${run.peakMiB.toFixed(0)} MiB.`
  );
}
