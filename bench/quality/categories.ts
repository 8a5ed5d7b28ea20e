// Category agreement: the automatic categories (src/catalog/categories/categorize.ts) against the labelled
// sample in categories-labelled.json, and a second labeller's labels of it and of 100 more tools
// (categories-labelled-2.json; docs/menu.md). Run by run.ts, or alone:
// `npx tsx bench/quality/categories.ts [--data DIR] [--misses]` (--misses lists the dev misses).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { categorizeCatalog, CATEGORY_IDS, type CategorizeOptions } from '../../src/gateway/index.js';
import { checkAgainstReference, referenceLine } from './categories-check.js';
import { loadJson, requireBenchDir, type BenchTool } from './data.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The catalogs the sample was drawn from (categories-sample.ts). */
export const CATALOGS = [
  'catalog-metatool.json',
  'catalog-livemcpbench.json',
  'catalog-smithery-toolgym-distractors.json',
];
/** The big catalog the speed is measured on (as bench/core builds it). */
const BIG = ['catalog-livemcpbench.json', 'catalog-smithery-toolgym-distractors.json'];
/** Timed runs after the first; the best is reported (the machine is shared: the least disturbed run). */
const SPEED_RUNS = 21;
/** Tuned on, reported apart, labelled after the method was frozen (docs/menu.md). */
const SPLITS = ['dev', 'held-out', 'fresh'];

export interface Label {
  key: string;
  category: string;
  split: string;
  note?: string;
}

/** A categoriser under test: the method with some options, or a fixed answer. */
export interface Variant {
  name: string;
  categorize(tools: readonly BenchTool[]): Map<string, string>;
}

export const method = (name: string, options: Partial<CategorizeOptions>): Variant => ({
  name,
  categorize: (tools) => new Map(categorizeCatalog(tools, options).tools.map((t) => [t.key, t.category])),
});

/** The method, its ablations and the majority class of the dev half. */
function variants(labels: readonly Label[]): Variant[] {
  const counts = new Map<string, number>();
  for (const l of labels) if (l.split === 'dev') counts.set(l.category, (counts.get(l.category) ?? 0) + 1);
  const majority = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  return [
    method('categorize (default)', {}),
    method('without server evidence', { serverWeight: 0 }),
    {
      name: `majority class (${majority})`,
      categorize: (tools) => new Map(tools.map((t) => [`${t.server}/${t.name}`, majority])),
    },
  ];
}

export interface Agreement {
  variant: string;
  /** Share of each split's tools in their labelled category; '' is all of them. */
  bySplit: Record<string, number>;
  perCategory: Record<string, { n: number; agree: number }>;
  misses: { label: Label; got: string }[];
}

export function agreement(
  variant: Variant,
  tools: readonly BenchTool[],
  labels: readonly Label[],
): Agreement {
  const got = variant.categorize(tools);
  const share = (split?: string) => {
    const list = labels.filter((l) => !split || l.split === split);
    return list.filter((l) => got.get(l.key) === l.category).length / list.length;
  };
  const perCategory: Agreement['perCategory'] = {};
  for (const l of labels) {
    const c = (perCategory[l.category] ??= { n: 0, agree: 0 });
    c.n++;
    if (got.get(l.key) === l.category) c.agree++;
  }
  const misses = labels
    .filter((l) => got.get(l.key) !== l.category)
    .map((label) => ({ label, got: got.get(label.key) ?? '(none)' }));
  const bySplit = Object.fromEntries([...SPLITS, ''].map((split) => [split, share(split || undefined)]));
  return { variant: variant.name, bySplit, perCategory, misses };
}

/** Milliseconds of CPU time this process spends in `run` (not wall-clock: the machine is shared). */
function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * CPU milliseconds to categorise the big catalog: the first run (it also searches each distinct
 * word once: run it before anything else categorises in this process), then the best of
 * SPEED_RUNS more. A later run reads the same texts, but the categoriser keeps no text between
 * runs, only its words' ids and scores: a text it never saw costs the same.
 */
function speed(dir: string): { tools: number; firstMs: number; ms: number } {
  const tools = BIG.flatMap((f) => loadJson<BenchTool[]>(dir, f));
  const firstMs = cpuMs(() => categorizeCatalog(tools));
  let ms = Infinity;
  for (let i = 0; i < SPEED_RUNS; i++)
    ms = Math.min(
      ms,
      cpuMs(() => categorizeCatalog(tools)),
    );
  return { tools: tools.length, firstMs, ms };
}

/** The hand labels (categories-labelled.json). */
export function loadLabels(): Label[] {
  return JSON.parse(readFileSync(join(here, 'categories-labelled.json'), 'utf8')) as Label[];
}

/** A second labeller's label: `alt` when a person could file the tool in a second category as well. */
export interface SecondLabel extends Label {
  alt?: string;
}

/** The second labeller's labels (categories-labelled-2.json): the 200 above, labelled again, and 100 more. */
export function loadSecondLabels(): SecondLabel[] {
  return JSON.parse(readFileSync(join(here, 'categories-labelled-2.json'), 'utf8')) as SecondLabel[];
}

/** Splits of the second labelling: the first labeller's three and a third sample, `fresh-2`. */
const SECOND_SPLITS = [...SPLITS, 'fresh-2'];

/**
 * The second labelling (docs/menu.md, "A second labeller"): how often the two labellers agree,
 * and the default categoriser against the second labeller, alone and counting its `alt`.
 */
export function secondLabellerReport(tools: readonly BenchTool[]): string {
  const first = new Map(loadLabels().map((l) => [l.key, l.category]));
  const second = loadSecondLabels();
  const got = method('categorize (default)', {}).categorize(tools);
  const cell = (list: readonly SecondLabel[], ok: (l: SecondLabel) => boolean) =>
    list.length ? `${f2(list.filter(ok).length / list.length)} (${list.length})` : '-';
  const rows = [...SECOND_SPLITS, ''].map((split) => {
    const list = second.filter((l) => !split || l.split === split);
    const both = list.filter((l) => first.has(l.key));
    return `| ${split || 'all'} | ${cell(both, (l) => first.get(l.key) === l.category)} | ${cell(both, (l) => first.get(l.key) === l.category || first.get(l.key) === l.alt)} | ${cell(list, (l) => got.get(l.key) === l.category)} | ${cell(list, (l) => got.get(l.key) === l.category || got.get(l.key) === l.alt)} |`;
  });
  return [
    `A second labeller (${second.length} labels, categories-labelled-2.json):`,
    '',
    '| split | labellers agree | ... or on the alt | categorize = second label | ... or its alt |',
    '|---|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

const f2 = (x: number): string => x.toFixed(2);

/** The agreement tables and the speed line, as markdown. */
export function categoryReport(dir: string, options: { misses?: boolean } = {}): string {
  const timing = speed(dir);
  const labels = loadLabels();
  const tools = CATALOGS.flatMap((f) => loadJson<BenchTool[]>(dir, f));
  const rows = variants(labels).map((v) => agreement(v, tools, labels));
  const count = (split: string) => labels.filter((l) => l.split === split).length;
  const lines = [
    `Category agreement with ${labels.length} hand labels (docs/menu.md):`,
    '',
    `| categoriser | ${SPLITS.map((s) => `${s} (${count(s)})`).join(' | ')} | all (${labels.length}) |`,
    `|---|${SPLITS.map(() => '---:').join('|')}|---:|`,
    ...rows.map((r) => `| ${r.variant} | ${[...SPLITS, ''].map((s) => f2(r.bySplit[s]!)).join(' | ')} |`),
    '',
    `| category | n | ${rows.map((r) => r.variant).join(' | ')} |`,
    `|---|---:|${rows.map(() => '---:').join('|')}|`,
    ...CATEGORY_IDS.map((id) => {
      const n = rows[0]!.perCategory[id]?.n ?? 0;
      return `| ${id} | ${n} | ${rows.map((r) => (n ? f2((r.perCategory[id]?.agree ?? 0) / n) : '-')).join(' | ')} |`;
    }),
  ];
  lines.push(
    '',
    secondLabellerReport(tools),
    '',
    `categorize: ${timing.tools} tools (the big catalog) in ${timing.ms.toFixed(0)} ms of CPU (best of ` +
      `${SPEED_RUNS}; the first run, which also searches each distinct word once, ${timing.firstMs.toFixed(0)} ms)`,
    referenceLine(checkAgainstReference(dir)),
  );
  if (options.misses) {
    lines.push('', 'dev misses of the default:');
    for (const m of rows[0]!.misses.filter((x) => x.label.split === 'dev')) {
      lines.push(`  ${m.label.key}: labelled ${m.label.category}, got ${m.got}`);
    }
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--data');
  const dir = requireBenchDir(resolve(here, '../..', i >= 0 ? process.argv[i + 1]! : '../shared/bench'));
  console.log(categoryReport(dir, { misses: process.argv.includes('--misses') }));
}
