// Rendering bench rows as a markdown table and as JSON.
import type { Row } from './evaluate.js';

const f3 = (x: number): string => x.toFixed(3);
const f1 = (x: number): string => x.toFixed(x < 10 ? 2 : 0);

/** The markdown table printed by the bench. */
export function markdownTable(rows: readonly Row[]): string {
  const head =
    '| set | system | n | Hit@1 | R@5 | R@10 | nDCG@10 | srv R@5 | srv nDCG@5 | p50 ms | p95 ms | build ms |';
  const rule = '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const lines = rows.map(
    (r) =>
      `| ${r.set} | ${r.system} | ${r.n} | ${f3(r.hit1)} | ${f3(r.recall5)} | ${f3(r.recall10)} | ${f3(r.ndcg10)} | ` +
      `${f3(r.serverRecall5)} | ${f3(r.serverNdcg5)} | ${f1(r.p50Ms)} | ${f1(r.p95Ms)} | ${f1(r.buildMs)} |`,
  );
  return [head, rule, ...lines].join('\n');
}

/** The JSON written to bench/out/quality.json (per-query detail only for small sets). */
export function jsonReport(rows: readonly Row[], meta: Record<string, unknown>): string {
  return JSON.stringify(
    { ...meta, rows: rows.map((r) => ({ ...r, perQuery: r.n <= 100 ? r.perQuery : undefined })) },
    null,
    1,
  );
}

/**
 * The cells the ranking decisions were made on (docs/search.md): each is a set and a metric; a
 * system's decision score is their mean. Whole-task and per-step, small and big, plus MetaTool.
 */
export const DECISION_CELLS: readonly (readonly [string, keyof Row])[] = [
  ['lmb-small task', 'recall5'],
  ['lmb-small steps', 'recall5'],
  ['lmb-small steps', 'serverRecall5'],
  ['lmb-big task', 'recall5'],
  ['lmb-big task', 'ndcg10'],
  ['lmb-big steps', 'recall5'],
  ['lmb-big steps', 'serverRecall5'],
  ['metatool', 'hit1'],
  ['metatool', 'recall5'],
];

/** One line per system: the decision cells and their mean (only when every cell was run). */
export function decisionTable(rows: readonly Row[]): string {
  const systems = [...new Set(rows.map((r) => r.system))];
  const head = `| system | ${DECISION_CELLS.map(([s, m]) => `${s} ${m}`).join(' | ')} | mean |`;
  const rule = `|---|${DECISION_CELLS.map(() => '---:').join('|')}|---:|`;
  const lines = systems.flatMap((system) => {
    const values = DECISION_CELLS.map(
      ([set, metric]) => rows.find((r) => r.system === system && r.set === set)?.[metric],
    );
    if (values.some((v) => typeof v !== 'number')) return [];
    const nums = values as number[];
    return [
      `| ${system} | ${nums.map(f3).join(' | ')} | ${f3(nums.reduce((a, b) => a + b, 0) / nums.length)} |`,
    ];
  });
  return lines.length === 0 ? '' : [head, rule, ...lines].join('\n');
}
