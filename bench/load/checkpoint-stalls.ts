// Event-loop stalls from WAL checkpoints: `npx tsx bench/load/checkpoint-stalls.ts [--seconds S]`.
// A real store file takes audited calls (begin + finish, as every call_tool does) as fast as a
// 0 ms timer loop allows, for S seconds (default 8), with checkpoints on this thread's 1 s timer
// ("main", the CLI's way) and on a worker thread ("worker", `carte serve`'s way), alternating,
// two rounds each. It reports the gaps between the loop's turns: a checkpoint on this thread
// holds the loop through its fsyncs, and every request in flight waits that long.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openStore } from '../../src/gateway/index.js';
import { numberFlag } from '../core/paths.js';
import { machine, machineLine, table } from '../core/report.js';

const ROW = {
  kind: 'call' as const,
  key: 'everything/echo',
  server: 'everything',
  requestId: 'r',
  tokenId: 't',
  project: 'default',
  argsDigest: 'abcdef0123456789abcdef0123456789',
};
const STALL_MS = 20;

async function round(mode: 'main' | 'worker', seconds: number): Promise<string[]> {
  const store = await openStore(join(mkdtempSync(join(tmpdir(), 'carte-stalls-')), 'carte.db'));
  if (mode === 'worker')
    store.checkpointInBackground((err) => console.error(`worker failed: ${err.message}`));
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const stalls: number[] = [];
  let calls = 0;
  let last = performance.now();
  const end = last + seconds * 1000;
  await new Promise<void>((resolve, reject) => {
    const tick = async () => {
      const now = performance.now();
      if (now - last > STALL_MS) stalls.push(now - last);
      last = now;
      await store.activity.finish(await store.activity.begin(ROW), { outcome: 'ok', durationMs: 1 });
      calls++;
      if (now > end) resolve();
      else setTimeout(() => void tick().catch(reject), 0);
    };
    tick().catch(reject);
  });
  delay.disable();
  await store.close();
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  return [
    mode,
    String(calls),
    ms(delay.percentile(50)),
    ms(delay.percentile(99.9)),
    ms(delay.max),
    String(stalls.length),
    stalls.length ? (stalls.reduce((a, b) => a + b, 0) / stalls.length).toFixed(1) : '-',
  ];
}

const seconds = numberFlag('seconds', 8);
const rows: string[][] = [];
for (const mode of ['main', 'worker', 'main', 'worker'] as const) rows.push(await round(mode, seconds));
console.log(machineLine(machine()));
console.log(
  table(
    [
      'checkpoints',
      'calls',
      'loop delay p50 ms',
      'p99.9 ms',
      'max ms',
      `gaps > ${STALL_MS} ms`,
      'mean gap ms',
    ],
    rows,
  ),
);
