// The audit half of the crash suite (issue 15, item 5): a process making tool calls through the
// gateway's AuditLog (run from source with tsx), SIGKILLed at seeded random moments. A call's
// result "reaches the caller" when the child prints `ack <n>` after AuditLog.call resolved; after
// each kill, every acked call must have its audit row, finished `ok`, in a sound store.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { argsDigest, openStore } from '../../src/gateway/index.js';
import { ROOT } from '../e2e/helpers.js';
import { seededRandom } from './kill-loop.js';

// Four calls in flight at once; each upstream "call" resolves after 0-2 ms, like a fast local tool.
const CHILD = `
const { AuditLog, openStore } = await import(process.env.GATEWAY_MODULE);
const [dbPath, first] = [process.argv[1], Number(process.argv[2])];
const store = await openStore(dbPath);
const log = (m) => process.stderr.write(m + '\\n');
const audit = new AuditLog(store, { debug() {}, info() {}, warn: log, error: log }, { arguments: 'digest' });
const ctx = { projectId: 'crash', scopes: ['call'], tokenId: 'tok_crash' };
const upstream = () => new Promise((r) => setTimeout(() => r({ content: [{ type: 'text', text: 'ok' }] }), Math.random() * 2));
let next = first;
process.stdout.write('ready\\n');
async function caller() {
  for (;;) {
    const n = next++;
    await audit.call(ctx, { key: 'crash/echo', server: 'crash', args: { n } }, upstream);
    process.stdout.write('ack ' + n + '\\n');
  }
}
await Promise.all([caller(), caller(), caller(), caller()]);
`;

export interface AuditLoopReport {
  runs: number;
  /** Calls whose result reached the caller, over all runs. */
  acked: number;
  /** Calls in flight when the kill landed: `interrupted` once the next start found them. */
  unfinished: number;
}

/** Kills `kills` call-making processes over one store file; throws on the first acked call without its row. */
export async function auditKillLoop(o: {
  dbPath: string;
  kills: number;
  seed: number;
}): Promise<AuditLoopReport> {
  const random = seededRandom(o.seed);
  const report: AuditLoopReport = { runs: 0, acked: 0, unfinished: 0 };
  for (let run = 1; run <= o.kills; run++) {
    const first = run * 1_000_000;
    const acked = await killedRun(o.dbPath, first, Math.floor(random() * 600));
    report.runs++;
    report.acked += acked.length;
    report.unfinished += await checkRows(o.dbPath, first, acked, `seed ${o.seed}, run ${run}`);
  }
  return report;
}

/** One child, SIGKILLed `delayMs` after it is ready; returns the acked call numbers. */
async function killedRun(dbPath: string, first: number, delayMs: number): Promise<number[]> {
  const env = {
    ...process.env,
    GATEWAY_MODULE: pathToFileURL(join(ROOT, 'src', 'gateway', 'index.ts')).href,
  };
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', CHILD, dbPath, String(first)],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  let timer: NodeJS.Timeout | undefined;
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    if (timer === undefined && stdout.startsWith('ready\n')) {
      timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    }
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  if (signal !== 'SIGKILL')
    throw new Error(`the calling process exited ${code} before the kill: ${stderr.slice(-500)}`);
  if (stderr) throw new Error(`the calling process logged: ${stderr.slice(-500)}`);
  // Only whole lines reached the caller: a line cut by the kill does not count.
  const lines = stdout.slice(0, stdout.lastIndexOf('\n') + 1).split('\n');
  return lines.filter((l) => l.startsWith('ack ')).map((l) => Number(l.slice(4)));
}

/**
 * Every acked call has a row finished `ok`, and none is left `started` (the check's own open of the
 * store is the next start: the killed process's calls in flight read `interrupted`); returns how many.
 */
async function checkRows(dbPath: string, first: number, acked: number[], where: string): Promise<number> {
  const store = await openStore(dbPath);
  try {
    const integrity = await store.checkIntegrity();
    if (integrity !== 'ok') throw new Error(`${where}: integrity_check says ${integrity}`);
    const rows = await store.activity.audit({ kinds: ['call'], project: 'crash' });
    const byDigest = new Map(rows.map((r) => [r.argsDigest, r]));
    for (const n of acked) {
      const row = byDigest.get(argsDigest({ n }));
      if (!row) throw new Error(`${where}: call ${n - first} reached the caller but has no audit row`);
      if (row.outcome !== 'ok')
        throw new Error(`${where}: call ${n - first} reached the caller but its row says ${row.outcome}`);
    }
    const mine = new Set(Array.from({ length: acked.length + 8 }, (_, i) => argsDigest({ n: first + i })));
    const left = rows.filter((r) => r.outcome === 'started');
    if (left.length > 0) throw new Error(`${where}: ${left.length} rows left "started" after the next start`);
    return rows.filter((r) => r.outcome === 'interrupted' && mine.has(r.argsDigest ?? '')).length;
  } finally {
    await store.close();
  }
}
