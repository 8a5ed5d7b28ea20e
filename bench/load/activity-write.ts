// What recording a call in the activity table costs (issue 14): `npx tsx bench/load/activity-write.ts [--quick]`
// (also run by bench:load). Real store files in WAL mode, each holding 100,000 calls of 300 tools
// over 89 days:
// - record(): single writes, alternating between the schema of migration 5 (one index, on time)
//   and the same plus a per-tool index (the alternative it was measured against);
// - the usage queries over those rows, on both;
// - recordCall around a call that resolves at once, and around an in-process Gateway.callTool to
//   everything/echo, each alternating with the bare call in the same run;
// - result sizing: estimateJsonBytes against JSON.stringify.
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfigFile } from '../../src/config/index.js';
import { Gateway, LOCAL_CALLER, openStore, serversFromConfig, type Store } from '../../src/gateway/index.js';
import { estimateJsonBytes } from '../../src/gateway/trust/usage.js';
import { recordCall, usageRecorder } from './usage-record.js';
import { QUIET } from '../core/logger.js';
import { hasFlag, tempDir } from '../core/paths.js';
import { machine, machineLine, progress, table, writeJson } from '../core/report.js';
import { median, ms, quantile, ratio, summarize } from '../core/stats.js';
import { CONFIGS } from './configs.js';

const ROWS = 100_000;
const TOOLS = 300;
const DAY = 86_400_000;
const TARGET = { key: 'everything/echo', server: 'everything' };
const ECHO = { content: [{ type: 'text', text: 'Echo: m12345' }] };

/** The per-tool index the schema does without (see migration 5). */
const BY_TOOL_INDEX = `CREATE INDEX activity_calls_by_tool ON activity(key, at, outcome, duration_ms) WHERE kind = 'call'`;

type Summary = ReturnType<typeof summarize>;
/** Per call, ms: latency p50 of each arm, the added p50 (all samples; median of block pairs), CPU of this process. */
type Arm = {
  bare: number;
  recorded: number;
  added: number;
  addedPaired: number;
  cpuBare: number;
  cpuRecorded: number;
  n: number;
};

export interface ActivityWriteResult {
  /** Single record() calls, ms, per schema. */
  record: { timeIndex: Summary; byToolIndex: Summary };
  /** Median ms of each query, per schema. */
  queries: Record<string, { timeIndex: number; byToolIndex: number }>;
  /** p50 per call, ms, of each arm; `added` is recorded minus bare. */
  synthetic: Arm;
  echo: Arm;
  sizing: { shape: string; bytes: number; estimate: number; stringifyMs: number; estimateMs: number }[];
}

/** 100,000 calls over the last 89 days (inside the 90-day retention), one transaction. */
function fill(store: Store): void {
  const now = Date.now();
  store.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const key = `srv${i % 20}/tool_${(i * 7919) % TOOLS}`;
      store.activity.record({
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
function timeRecords(stores: Store[], blocks: number, perBlock: number): number[][] {
  const samples = stores.map(() => [] as number[]);
  for (let b = 0; b < blocks; b++) {
    stores.forEach((store, s) => {
      for (let i = 0; i < perBlock; i++) {
        const key = `srv${i % 20}/tool_${(i * 31 + b) % TOOLS}`; // spread over the tools, as calls are
        const start = performance.now();
        store.activity.record({ kind: 'call', key, server: 'srv', outcome: 'ok', durationMs: 0.2 });
        samples[s]!.push(performance.now() - start);
      }
    });
  }
  return samples;
}

/** A filled store, its WAL checkpointed (the fill's WAL would otherwise land on the first writes). */
export function filledStore(path: string, extraIndex?: string): Store {
  openStore(path).close();
  const raw = new Database(path);
  if (extraIndex) raw.exec(extraIndex);
  const store = openStore(path);
  fill(store);
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.close();
  return store;
}

/** Median of `runs` timings of `fn`, ms. */
function timeQuery(fn: () => unknown, runs = 5): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Alternating blocks of the bare call and the recorded one. Latency p50 over all samples, the
 * median over block pairs of the p50 difference (robust to noise that drifts between blocks), and
 * this process's CPU per call, which waiting for a CPU does not inflate.
 */
async function alternate(
  blocks: number,
  perBlock: number,
  bare: () => Promise<unknown>,
  recorded: () => Promise<unknown>,
): Promise<Arm> {
  const lat = { bare: [] as number[], recorded: [] as number[] };
  const cpu = { bare: 0, recorded: 0 };
  const pairs: number[] = [];
  for (let b = -1; b < blocks; b++) {
    const blockP50 = { bare: 0, recorded: 0 };
    for (const [name, fn] of [
      ['bare', bare],
      ['recorded', recorded],
    ] as const) {
      const block: number[] = [];
      const cpuStart = cpuMs();
      for (let i = 0; i < perBlock; i++) {
        const start = performance.now();
        await fn();
        block.push(performance.now() - start);
      }
      if (b < 0) continue; // block -1 is the warm-up
      cpu[name] += cpuMs() - cpuStart;
      lat[name].push(...block);
      blockP50[name] = quantile(block, 0.5);
    }
    if (b >= 0) pairs.push(blockP50.recorded - blockP50.bare);
  }
  const p50 = { bare: quantile(lat.bare, 0.5), recorded: quantile(lat.recorded, 0.5) };
  const n = lat.bare.length;
  return {
    ...p50,
    added: p50.recorded - p50.bare,
    addedPaired: median(pairs),
    cpuBare: cpu.bare / n,
    cpuRecorded: cpu.recorded / n,
    n,
  };
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
  const config = join(tmp.dir, 'carte.yaml');
  writeFileSync(config, `${CONFIGS.stdio().join('\n')}\n`);
  const loaded = loadConfigFile(config, { env: {}, dataDir: join(tmp.dir, 'data') });
  if (!loaded.config) throw new Error(`cannot load ${config}`);
  progress(`activity: filling two stores with ${ROWS} rows`);
  const store = filledStore(join(tmp.dir, 'data', 'carte.db'));
  const byTool = filledStore(join(tmp.dir, 'by-tool', 'carte.db'), BY_TOOL_INDEX);
  const gateway = new Gateway({ servers: serversFromConfig(loaded.config), store, logger: QUIET });
  try {
    progress('activity: record() with and without a per-tool index');
    timeRecords([store, byTool], 1, 500); // warm-up
    const [timeIndex, byToolIndex] = timeRecords([store, byTool], opts.quick ? 5 : 20, 1000).map(summarize);
    const since = Date.now() - 7 * DAY;
    const queries: ActivityWriteResult['queries'] = {};
    const query = (name: string, fn: (s: Store) => unknown) =>
      (queries[name] = { timeIndex: timeQuery(() => fn(store)), byToolIndex: timeQuery(() => fn(byTool)) });
    query('usageByTool() (all rows)', (s) => s.activity.usageByTool());
    query('usageByTool({since: 7 days ago})', (s) => s.activity.usageByTool({ since }));
    query('hotScores() (half-life 7 days)', (s) => s.activity.hotScores());
    query('pruneExpired(), nothing to prune (on every open)', (s) => s.activity.pruneExpired());
    const rec = usageRecorder(store, QUIET);
    // Short blocks, many of them: on a shared machine the noise drifts within seconds.
    const blocks = opts.quick ? 10 : 40;
    progress('activity: recordCall around a call that resolves at once');
    const run = () => Promise.resolve(ECHO);
    const synthetic = await alternate(blocks, 500, run, () => recordCall(rec, TARGET, run));
    progress('activity: recordCall around Gateway.callTool to everything/echo');
    await gateway.sync(LOCAL_CALLER);
    const call = () => gateway.callTool(LOCAL_CALLER, TARGET.key, { message: 'm12345' });
    const echo = await alternate(blocks, 100, call, () => recordCall(rec, TARGET, call));
    return {
      record: { timeIndex: timeIndex!, byToolIndex: byToolIndex! },
      queries,
      synthetic,
      echo,
      sizing: sizing(),
    };
  } finally {
    await gateway.close();
    store.close();
    byTool.close();
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
  const arm = (name: string, a: Arm) => [
    name,
    String(a.n),
    us(a.bare),
    us(a.recorded),
    us(a.added),
    us(a.addedPaired),
    ratio(a.recorded, a.bare),
    us(a.cpuBare),
    us(a.cpuRecorded),
    us(a.cpuRecorded - a.cpuBare),
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
      [
        'per call (alternating blocks)',
        'calls per arm',
        'bare p50 µs',
        'recorded p50 µs',
        'added p50 µs',
        'added µs, median of block pairs',
        'p50 ratio',
        'CPU bare µs',
        'CPU recorded µs',
        'CPU added µs',
      ],
      [
        arm('recordCall around a call that resolves at once', r.synthetic),
        arm('recordCall around in-process Gateway.callTool → everything/echo', r.echo),
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
  activityWrite({ quick: hasFlag('quick') })
    .then((r) => {
      console.log(['# Activity write', '', machineLine(m), '', activityTables(r)].join('\n'));
      console.log(`\nwrote ${writeJson('activity-write', { machine: m, ...r })}`);
    })
    .catch((err: unknown) => {
      console.error(err instanceof Error ? (err.stack ?? err.message) : err);
      process.exitCode = 1;
    });
}
