// An experiment for issue 14 (docs/menu.md, "A learned model"): can a model learned from the
// labelled tools lift category agreement where the hand-written method stops? Softmax regression
// over the method's own blended scores plus the tool's words (name, description, parameter names,
// server id and description), trained on the first 200 labelled tools (first labeller), its L2
// weight chosen by 5-fold cross-validation on them, then measured once on `fresh-2` (the 100
// tools only the second labeller labelled, never tuned on). Nothing here ships: the learned
// weights would be derived from the bench catalogs' text.
// `npx tsx bench/quality/categories-learned.ts [--data DIR]`
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { categorizeCatalog, CATEGORY_IDS } from '../../src/gateway/index.js';
import { tokenize } from '../../src/search/index.js';
import { CATALOGS, loadLabels, loadSecondLabels } from './categories.js';
import { loadJson, requireBenchDir, toolId, type BenchTool } from './data.js';

const here = dirname(fileURLToPath(import.meta.url));
const C = CATEGORY_IDS.length;
const DESCRIPTION_CHARS = 300;
const FOLDS = 5;
const EPOCHS = 300;
const LAMBDAS = [0.001, 0.01, 0.03, 0.1, 0.3];

interface Example {
  key: string;
  scores: number[];
  words: string[];
  label: number;
}

/** The tool's words, by field (a word counts once per field). */
function wordsOf(t: BenchTool): string[] {
  const field = (prefix: string, text: string) => [...new Set(tokenize(text))].map((w) => `${prefix}:${w}`);
  return [
    ...field('n', t.name.replace(/[_-]/g, ' ')),
    ...field('d', (t.description ?? '').slice(0, DESCRIPTION_CHARS)),
    ...field('p', Object.keys(t.inputSchema?.properties ?? {}).join(' ')),
    ...field(
      's',
      `${t.server.replace(/[@/_-]/g, ' ')} ${(t.server_description ?? '').slice(0, DESCRIPTION_CHARS)}`,
    ),
  ];
}

interface Model {
  a: number; // weight of the method's scores
  w: Map<string, Float64Array>;
}

function logits(m: Model, x: Example, useScores: boolean): Float64Array {
  const z = new Float64Array(C);
  if (useScores) for (let c = 0; c < C; c++) z[c] = m.a * x.scores[c]!;
  for (const word of x.words) {
    const wv = m.w.get(word);
    if (wv) for (let c = 0; c < C; c++) z[c]! += wv[c]!;
  }
  return z;
}

function softmax(z: Float64Array): Float64Array {
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((s, v) => s + v, 0);
  return e.map((v) => v / sum);
}

/** Full-batch gradient descent with Adam on the mean cross-entropy plus lambda/2 * |W|^2. */
function train(data: readonly Example[], lambda: number, useScores: boolean): Model {
  const m: Model = { a: useScores ? 3 : 0, w: new Map() };
  for (const x of data) for (const word of x.words) if (!m.w.has(word)) m.w.set(word, new Float64Array(C));
  const mom = new Map<string, { m: Float64Array; v: Float64Array }>();
  let am = 0;
  let av = 0;
  const lr = 0.05;
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    const grad = new Map<string, Float64Array>();
    let ga = 0;
    for (const x of data) {
      const p = softmax(logits(m, x, useScores));
      p[x.label]! -= 1;
      if (useScores) for (let c = 0; c < C; c++) ga += (p[c]! * x.scores[c]!) / data.length;
      for (const word of x.words) {
        let g = grad.get(word);
        if (!g) grad.set(word, (g = new Float64Array(C)));
        for (let c = 0; c < C; c++) g[c]! += p[c]! / data.length;
      }
    }
    const b1 = 0.9;
    const b2 = 0.999;
    for (const [word, wv] of m.w) {
      const g = grad.get(word) ?? new Float64Array(C);
      let s = mom.get(word);
      if (!s) mom.set(word, (s = { m: new Float64Array(C), v: new Float64Array(C) }));
      for (let c = 0; c < C; c++) {
        const gc = g[c]! + lambda * wv[c]!;
        s.m[c] = b1 * s.m[c]! + (1 - b1) * gc;
        s.v[c] = b2 * s.v[c]! + (1 - b2) * gc * gc;
        const mh = s.m[c]! / (1 - b1 ** epoch);
        const vh = s.v[c]! / (1 - b2 ** epoch);
        wv[c]! -= (lr * mh) / (Math.sqrt(vh) + 1e-8);
      }
    }
    if (useScores) {
      am = b1 * am + (1 - b1) * ga;
      av = b2 * av + (1 - b2) * ga * ga;
      m.a -= (lr * (am / (1 - b1 ** epoch))) / (Math.sqrt(av / (1 - b2 ** epoch)) + 1e-8);
    }
  }
  return m;
}

function accuracy(m: Model, data: readonly Example[], useScores: boolean): number {
  let ok = 0;
  for (const x of data) {
    const z = logits(m, x, useScores);
    let best = 0;
    for (let c = 1; c < C; c++) if (z[c]! > z[best]!) best = c;
    if (best === x.label) ok++;
  }
  return ok / data.length;
}

function crossValidate(data: readonly Example[], lambda: number, useScores: boolean): number {
  let sum = 0;
  for (let f = 0; f < FOLDS; f++) {
    const test = data.filter((_, i) => i % FOLDS === f);
    const trainSet = data.filter((_, i) => i % FOLDS !== f);
    sum += accuracy(train(trainSet, lambda, useScores), test, useScores) * test.length;
  }
  return sum / data.length;
}

function main(): void {
  const i = process.argv.indexOf('--data');
  const dir = requireBenchDir(resolve(here, '../..', i >= 0 ? process.argv[i + 1]! : '../shared/bench'));
  const tools = CATALOGS.flatMap((f) => loadJson<BenchTool[]>(dir, f));
  const byKey = new Map(tools.map((t) => [toolId(t), t]));
  const scored = new Map(categorizeCatalog(tools, { scores: true }).tools.map((t) => [t.key, t]));
  const example = (key: string, category: string): Example => {
    const s = scored.get(key)!.scores!;
    return {
      key,
      scores: CATEGORY_IDS.map((id) => s[id]),
      words: wordsOf(byKey.get(key)!),
      label: CATEGORY_IDS.indexOf(category as (typeof CATEGORY_IDS)[number]),
    };
  };
  const first = loadLabels().map((l) => example(l.key, l.category));
  const fresh2 = loadSecondLabels()
    .filter((l) => l.split === 'fresh-2')
    .map((l) => example(l.key, l.category));
  const method = (data: readonly Example[]) =>
    data.filter((x) => CATEGORY_IDS.indexOf(scored.get(x.key)!.category) === x.label).length / data.length;
  console.log(`the method: first 200 ${method(first).toFixed(3)}, fresh-2 ${method(fresh2).toFixed(3)}\n`);
  console.log('| model | lambda | 5-fold CV on the first 200 |');
  console.log('|---|---:|---:|');
  const picks: { name: string; useScores: boolean; lambda: number; cv: number }[] = [];
  for (const [name, useScores] of [
    ['words only', false],
    ['method scores + words', true],
  ] as const) {
    let best = { lambda: LAMBDAS[0]!, cv: -1 };
    for (const lambda of LAMBDAS) {
      const cv = crossValidate(first, lambda, useScores);
      console.log(`| ${name} | ${lambda} | ${cv.toFixed(3)} |`);
      if (cv > best.cv) best = { lambda, cv };
    }
    picks.push({ name, useScores, ...best });
  }
  console.log('\n| model (lambda picked by CV) | CV | fresh-2 (trained on all 200) |');
  console.log('|---|---:|---:|');
  for (const p of picks) {
    const m = train(first, p.lambda, p.useScores);
    console.log(
      `| ${p.name} (${p.lambda}) | ${p.cv.toFixed(3)} | ${accuracy(m, fresh2, p.useScores).toFixed(3)} |`,
    );
  }
}

main();
