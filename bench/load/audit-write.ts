// What the audit log costs per call (issue 15, "Done when": < 0.1 ms p50), in one run:
// `npx tsx bench/load/audit-write.ts [--quick]` (also run by bench:load).
// A real WAL store file holding 100,000 calls (activity-write.ts's fill), then alternating blocks:
// - store level: one record() (one INSERT, as a search or browse event writes) against begin() +
//   finish() (a call's two writes);
// - per call: AuditLog.call (arguments: digest, and redacted) around a call that resolves at once,
//   with the bare call in the same blocks, so added = wrapped - bare.
// The usage record the audit replaced (recordCall) was measured here too until 7a2f58a
// (docs/history/benchmarks-history.md, "How we got here").
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AuditLog, LOCAL_CALLER, argsDigest } from '../../src/gateway/index.js';
import { QUIET } from '../core/logger.js';
import { hasFlag, tempDir } from '../core/paths.js';
import { machine, machineLine, progress, table, writeJson } from '../core/report.js';
import { summarize, type Summary } from '../core/stats.js';
import { filledStore } from './activity-write.js';

const TARGET = { key: 'github/search_issues', server: 'github' };
/** Typical arguments: a few short strings and a number. */
const ARGS = { query: 'is:open label:bug', owner: 'octocat', repo: 'hello-world', perPage: 30 };
const RESULT = { content: [{ type: 'text', text: 'Echo: m12345' }] };

/** This process's CPU per call over an arm's measured blocks, µs: all of it, and the kernel's part. */
export interface CpuPerCall {
  totalUs: number;
  systemUs: number;
}

export interface AuditWriteResult {
  /** Per call, ms. */
  store: { record: Summary; beginFinish: Summary };
  /** Per call, from process.cpuUsage around each block (each write its own commit here). */
  storeCpu: { record: CpuPerCall; beginFinish: CpuPerCall };
  /** Per call, ms; `bare` is the call alone. */
  calls: { bare: Summary; auditDigest: Summary; auditRedacted: Summary };
}

/** Runs `arms` in turn, `perBlock` calls each, for `blocks` blocks (a warm-up block first). */
async function alternate(
  arms: Record<string, () => unknown>,
  blocks: number,
  perBlock: number,
): Promise<{ times: Record<string, Summary>; cpu: Record<string, CpuPerCall> }> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(arms).map((k) => [k, []]));
  const cpu: Record<string, { user: number; system: number }> = Object.fromEntries(
    Object.keys(arms).map((k) => [k, { user: 0, system: 0 }]),
  );
  for (let b = -1; b < blocks; b++) {
    for (const [name, fn] of Object.entries(arms)) {
      const used = process.cpuUsage();
      for (let i = 0; i < perBlock; i++) {
        const start = performance.now();
        await fn();
        const took = performance.now() - start;
        if (b >= 0) samples[name]!.push(took);
      }
      const spent = process.cpuUsage(used);
      if (b >= 0) {
        cpu[name]!.user += spent.user;
        cpu[name]!.system += spent.system;
      }
    }
  }
  const calls = blocks * perBlock;
  return {
    times: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v)])),
    cpu: Object.fromEntries(
      Object.entries(cpu).map(([k, c]) => [
        k,
        { totalUs: (c.user + c.system) / calls, systemUs: c.system / calls },
      ]),
    ),
  };
}

export async function auditWrite(opts: { quick: boolean }): Promise<AuditWriteResult> {
  const tmp = tempDir('carte-audit-');
  progress('audit: filling a store with 100k rows');
  const store = await filledStore(join(tmp.dir, 'data', 'carte.db'));
  try {
    const blocks = opts.quick ? 10 : 40;
    const digest = argsDigest(ARGS);
    progress('audit: record() against begin() + finish()');
    const { times: s, cpu: sCpu } = await alternate(
      {
        record: () =>
          store.activity.record({ kind: 'call', ...TARGET, outcome: 'ok', durationMs: 0.2, resultBytes: 51 }),
        beginFinish: async () => {
          const id = await store.activity.begin({
            kind: 'call',
            ...TARGET,
            project: 'default',
            argsDigest: digest,
          });
          await store.activity.finish(id, { outcome: 'ok', durationMs: 0.2, resultBytes: 51 });
        },
      },
      blocks,
      500,
    );
    progress('audit: AuditLog.call around a call that resolves at once');
    const digestLog = new AuditLog(store, QUIET, { arguments: 'digest' });
    const redactedLog = new AuditLog(store, QUIET, { arguments: 'redacted' });
    const run = () => Promise.resolve(RESULT);
    const { times: c } = await alternate(
      {
        bare: run,
        auditDigest: () => digestLog.call(LOCAL_CALLER, { ...TARGET, args: ARGS }, run),
        auditRedacted: () => redactedLog.call(LOCAL_CALLER, { ...TARGET, args: ARGS }, run),
      },
      blocks,
      500,
    );
    return {
      store: { record: s.record!, beginFinish: s.beginFinish! },
      storeCpu: { record: sCpu.record!, beginFinish: sCpu.beginFinish! },
      calls: {
        bare: c.bare!,
        auditDigest: c.auditDigest!,
        auditRedacted: c.auditRedacted!,
      },
    };
  } finally {
    await store.close();
    tmp.cleanup();
  }
}

const us = (x: number) => (x * 1000).toFixed(1);

/** The markdown tables of one run. */
export function auditTables(r: AuditWriteResult): string {
  const row = (name: string, s: Summary, bare?: Summary) => [
    name,
    String(s.n),
    ...[s.p50, s.p95, s.p99, s.mean].map(us),
    bare ? us(s.p50 - bare.p50) : '-',
  ];
  const head = (what: string) => [what, 'calls', 'p50 µs', 'p95 µs', 'p99 µs', 'mean µs', 'added p50 µs'];
  return [
    table(head('store writes per call, WAL store of 100k calls'), [
      row('record() (one INSERT)', r.store.record),
      row('begin() + finish() (audit: INSERT before, UPDATE after)', r.store.beginFinish),
    ]),
    '',
    table(
      ['store writes, each its own commit', 'CPU µs per call', 'of it in the kernel, µs'],
      [
        ['record()', r.storeCpu.record.totalUs.toFixed(1), r.storeCpu.record.systemUs.toFixed(1)],
        [
          'begin() + finish()',
          r.storeCpu.beginFinish.totalUs.toFixed(1),
          r.storeCpu.beginFinish.systemUs.toFixed(1),
        ],
      ],
    ),
    '',
    table(head('per call, around a call that resolves at once'), [
      row('bare call', r.calls.bare),
      row('AuditLog.call, arguments: digest', r.calls.auditDigest, r.calls.bare),
      row('AuditLog.call, arguments: redacted', r.calls.auditRedacted, r.calls.bare),
    ]),
    '',
    `Target (issue 15): audit writes < 100 µs p50 per call; begin() + finish() p50 ${us(r.store.beginFinish.p50)} µs, p99 ${us(r.store.beginFinish.p99)} µs.`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const m = machine();
  auditWrite({ quick: hasFlag('quick') })
    .then((r) => {
      console.log(['# Audit write', '', machineLine(m), '', auditTables(r)].join('\n'));
      console.log(`\nwrote ${writeJson('audit-write', { machine: m, ...r })}`);
    })
    .catch((err: unknown) => {
      console.error(err instanceof Error ? (err.stack ?? err.message) : err);
      process.exitCode = 1;
    });
}
