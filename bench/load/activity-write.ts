// What recording a call in the activity table costs (issue 14): `npx tsx bench/load/activity-write.ts [--quick]`
// (also run by bench:load). Real store files in WAL mode, each holding 100,000 calls of 300 tools
// over 89 days:
// - record(): single writes, alternating between the schema of migration 5 (one index, on time)
//   and the same plus a per-tool index (the alternative it was measured against);
// - the usage queries over those rows, on both;
// - result sizing: estimateJsonBytes against JSON.stringify.
// What a call's rows cost end to end is audit-write.ts's. Until 7a2f58a this script also timed the
// usage record that came before the audit (recordCall) around a bare call and around
// Gateway.callTool (docs/history/benchmarks-history.md, "How we got here").
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openStore, type Store } from '../../src/gateway/index.js';
import { estimateJsonBytes } from '../../src/gateway/trust/usage.js';
import { hasFlag, tempDir } from '../core/paths.js';
import { machine, machineLine, progress, table, writeJson } from '../core/report.js';
import { median, ms, summarize } from '../core/stats.js';

const ROWS = 100_000;
const TOOLS = 300;
const DAY = 86_400_000;
const ECHO = { content: [{ type: 'text', text: 'Echo: m12345' }] };

/** The per-tool index the schema does without (see migration 5). */
const BY_TOOL_INDEX = `CREATE INDEX activity_calls_by_tool ON activity(key, at, outcome, duration_ms) WHERE kind = 'call'`;

type Summary = ReturnType<typeof summarize>;

export interface ActivityWriteResult {
  /** Single record() calls, ms, per schema. */
  record: { timeIndex: Summary; byToolIndex: Summary };
  /** Median ms of each query, per schema. */
  queries: Record<string, { timeIndex: number; byToolIndex: number }>;
  sizing: { shape: string; bytes: number; estimate: number; stringifyMs: number; estimateMs: number }[];
}

/** 100,000 calls over the last 89 days (inside the 90-day retention), one transaction. */
async function fill(store: Store): Promise<void> {
  const now = Date.now();
  await store.transaction(async (tx) => {
    for (let i = 0; i < ROWS; i++) {
      const key = `srv${i % 20}/tool_${(i * 7919) % TOOLS}`;
      await tx.activity.record({
        kind: 'call',
        key,
        server: key.slice(0, key.indexOf('/')),
        at: now - Math.floor(((ROWS - i) / ROWS) * 89 * DAY),
        outcome: i % 13 === 0 ? 'tool_error' : 'ok',
        durationMs: ((i * 2654435761) % 50_000) / 1000,
        resultBytes: 100 + (i % 1000),
      });
    }
  });
}

/** Writes one call into each store in turn, in blocks, so noise hits both alike. */
async function timeRecords(stores: Store[], blocks: number, perBlock: number): Promise<number[][]> {
  const samples = stores.map(() => [] as number[]);
  for (let b = 0; b < blocks; b++) {
    for (const [s, store] of stores.entries()) {
      for (let i = 0; i < perBlock; i++) {
        const key = `srv${i % 20}/tool_${(i * 31 + b) % TOOLS}`; // spread over the tools, as calls are
        const start = performance.now();
        await store.activity.record({ kind: 'call', key, server: 'srv', outcome: 'ok', durationMs: 0.2 });
        samples[s]!.push(performance.now() - start);
      }
    }
  }
  return samples;
}

/** A filled store, its WAL checkpointed (the fill's WAL would otherwise land on the first writes). */
export async function filledStore(path: string, extraIndex?: string): Promise<Store> {
  await (await openStore(path)).close();
  const raw = new Database(path);
  if (extraIndex) raw.exec(extraIndex);
  const store = await openStore(path);
  await fill(store);
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.close();
  return store;
}

/** Median of `runs` timings of `fn`, ms. */
async function timeQuery(fn: () => Promise<unknown>, runs = 5): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function sizing(): ActivityWriteResult['sizing'] {
  const rows = Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'] }));
  const shapes: [string, unknown][] = [
    ['echo (51 B)', ECHO],
    ['text, 4 MB', { content: [{ type: 'text', text: 'lorem ipsum '.repeat(350_000) }] }],
    [
      'image, 1 MB base64',
      { content: [{ type: 'image', data: 'QUJD'.repeat(250_000), mimeType: 'image/png' }] },
    ],
    ['structuredContent, 50k rows', { content: [], structuredContent: { rows } }],
    ['Japanese text, 24 KB', { content: [{ type: 'text', text: '日本語のテキスト'.repeat(1000) }] }],
  ];
  return shapes.map(([shape, value]) => {
    const stringify: number[] = [];
    const estimate: number[] = [];
    let bytes = 0;
    let est = 0;
    for (let i = 0; i < 15; i++) {
      let start = performance.now();
      bytes = Buffer.byteLength(JSON.stringify(value));
      stringify.push(performance.now() - start);
      start = performance.now();
      est = estimateJsonBytes(value);
      estimate.push(performance.now() - start);
    }
    return { shape, bytes, estimate: est, stringifyMs: median(stringify), estimateMs: median(estimate) };
  });
}

/** Runs every part; `quick` shortens the loops. */
export async function activityWrite(opts: { quick: boolean }): Promise<ActivityWriteResult> {
  const tmp = tempDir('carte-activity-');
  progress(`activity: filling two stores with ${ROWS} rows`);
  const store = await filledStore(join(tmp.dir, 'data', 'carte.db'));
  const byTool = await filledStore(join(tmp.dir, 'by-tool', 'carte.db'), BY_TOOL_INDEX);
  try {
    progress('activity: record() with and without a per-tool index');
    await timeRecords([store, byTool], 1, 500); // warm-up
    const [timeIndex, byToolIndex] = (await timeRecords([store, byTool], opts.quick ? 5 : 20, 1000)).map(
      summarize,
    );
    const since = Date.now() - 7 * DAY;
    const queries: ActivityWriteResult['queries'] = {};
    const query = async (name: string, fn: (s: Store) => Promise<unknown>) => {
      queries[name] = {
        timeIndex: await timeQuery(() => fn(store)),
        byToolIndex: await timeQuery(() => fn(byTool)),
      };
    };
    await query('usageByTool() (all rows)', (s) => s.activity.usageByTool());
    await query('usageByTool({since: 7 days ago})', (s) => s.activity.usageByTool({ since }));
    await query('hotScores() (half-life 7 days)', (s) => s.activity.hotScores());
    await query('pruneExpired(), nothing to prune (on every open)', (s) => s.activity.pruneExpired());
    return {
      record: { timeIndex: timeIndex!, byToolIndex: byToolIndex! },
      queries,
      sizing: sizing(),
    };
  } finally {
    await store.close();
    await byTool.close();
    tmp.cleanup();
  }
}

const us = (x: number) => (x * 1000).toFixed(1);

/** The markdown tables of one run. */
export function activityTables(r: ActivityWriteResult): string {
  const write = (name: string, s: Summary) => [
    name,
    String(s.n),
    ...[s.p50, s.p95, s.p99, s.mean, s.max].map(us),
  ];
  return [
    table(
      [
        '`record()` into a WAL store of 100k calls',
        'writes',
        'p50 µs',
        'p95 µs',
        'p99 µs',
        'mean µs',
        'max µs',
      ],
      [
        write('schema of migration 5 (index on time)', r.record.timeIndex),
        write('... plus an index by tool (not used)', r.record.byToolIndex),
      ],
    ),
    '',
    table(
      ['query on 100k calls of 300 tools, median of 5', 'index on time ms', 'plus index by tool ms'],
      Object.entries(r.queries).map(([q, t]) => [q, ms(t.timeIndex), ms(t.byToolIndex)]),
    ),
    '',
    table(
      [
        'result',
        'JSON bytes',
        'estimate',
        'estimate / exact',
        'JSON.stringify + byteLength ms',
        'estimateJsonBytes ms',
      ],
      r.sizing.map((z) => [
        z.shape,
        z.bytes.toLocaleString('en'),
        z.estimate.toLocaleString('en'),
        (z.estimate / z.bytes).toFixed(3),
        ms(z.stringifyMs),
        ms(z.estimateMs),
      ]),
    ),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const m = machine();
  try {
    const r = await activityWrite({ quick: hasFlag('quick') });
    console.log(['# Activity write', '', machineLine(m), '', activityTables(r)].join('\n'));
    console.log(`\nwrote ${writeJson('activity-write', { machine: m, ...r })}`);
  } catch (err) {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  }
}
