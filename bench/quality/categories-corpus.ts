// An experiment for issue 14 (docs/menu.md, "Evidence from the rest of the catalog"): can the
// catalog itself teach the categoriser words its category descriptions lack? Self-training with
// no labels: the method categorises every tool of the catalog; each word then gets a category
// distribution from the tools of OTHER servers that use it (weighted by how sure the method was:
// best score less the second); a tool's corpus evidence is the naive-Bayes log-odds of its words
// under those distributions, turned into probabilities, and added (times a weight) to its blended
// scores, with its server's mean as the method does. Labels are only read to measure.
// `--semantic`: the method starts with the dev pick of semantic evidence (USE-Lite, phrases and
// paragraph × 2, Tried and dropped), embedded for the 300 labelled tools only (vectors cached in
// bench/out), so the two small gains can be seen together.
// `npx tsx bench/quality/categories-corpus.ts [--data DIR] [--semantic]`
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATEGORIES, embedCategoryExemplars, type SemanticEvidence } from '../../src/catalog/index.js';
import { categorizeCatalog, CATEGORY_IDS } from '../../src/gateway/index.js';
import { tokenize } from '../../src/search/index.js';
import { CATALOGS, loadLabels, loadSecondLabels } from './categories.js';
import { cachedUseLite, labelledVectors } from './categories-ideas.js';
import { loadJson, requireBenchDir, toolId, type BenchTool } from './data.js';

const here = dirname(fileURLToPath(import.meta.url));
const C = CATEGORY_IDS.length;
const DESCRIPTION_CHARS = 300;

interface Doc {
  key: string;
  server: string;
  words: string[];
  /** The method's blended scores, best = 1. */
  base: Float64Array;
}

function wordsOf(t: BenchTool): string[] {
  const text = [
    t.name.replace(/[_-]/g, ' '),
    (t.description ?? '').slice(0, DESCRIPTION_CHARS),
    Object.keys(t.inputSchema?.properties ?? {}).join(' '),
  ].join(' ');
  return [...new Set(tokenize(text))];
}

/** As the method picks: the best category above 0, ties to the earlier id, none to utilities. */
function argmax(v: Float64Array): number {
  let best = -1;
  for (let c = 0; c < C; c++) if (v[c]! > 0 && (best < 0 || v[c]! > v[best]!)) best = c;
  return best < 0 ? CATEGORY_IDS.indexOf('utilities') : best;
}

/** Pseudo-labels: each tool's best category and the margin over the second (0 when no evidence). */
function pseudo(scores: readonly Float64Array[]): { label: number; weight: number }[] {
  return scores.map((s) => {
    const sorted = [...s].sort((a, b) => b - a);
    const top = sorted[0]!;
    return top <= 0 ? { label: 0, weight: 0 } : { label: argmax(s), weight: (top - sorted[1]!) / top };
  });
}

interface Params {
  alpha: number; // weight of the corpus evidence
  beta: number; // smoothing toward the prior, in tools
  minDocs: number; // a word must be used by this many other-server tools
  mean: boolean; // average the words' log-odds instead of summing them
}

/** Corpus evidence per tool: probabilities from other servers' pseudo-labelled tools. */
function corpusEvidence(
  docs: readonly Doc[],
  labels: { label: number; weight: number }[],
  p: Params,
): Float64Array[] {
  const total = new Map<string, Float64Array>();
  const perServer = new Map<string, Map<string, Float64Array>>();
  const docsOf = new Map<string, number>();
  const prior = new Float64Array(C);
  docs.forEach((d, i) => {
    const { label, weight } = labels[i]!;
    if (weight <= 0) return;
    prior[label]! += weight;
    let sv = perServer.get(d.server);
    if (!sv) perServer.set(d.server, (sv = new Map()));
    for (const w of d.words) {
      let t = total.get(w);
      if (!t) total.set(w, (t = new Float64Array(C + 1)));
      t[label]! += weight;
      t[C]! += 1;
      let s = sv.get(w);
      if (!s) sv.set(w, (s = new Float64Array(C + 1)));
      s[label]! += weight;
      s[C]! += 1;
      docsOf.set(w, (docsOf.get(w) ?? 0) + 1);
    }
  });
  const sum = prior.reduce((a, b) => a + b, 0);
  for (let c = 0; c < C; c++) prior[c] = (prior[c]! + 1) / (sum + C);
  const n = docs.length;
  return docs.map((d) => {
    const z = new Float64Array(C);
    let used = 0;
    const sv = perServer.get(d.server);
    for (const w of d.words) {
      const t = total.get(w);
      if (!t) continue;
      const s = sv?.get(w);
      const count = t[C]! - (s?.[C] ?? 0);
      if (count < p.minDocs) continue;
      let mass = 0;
      const local = new Float64Array(C);
      for (let c = 0; c < C; c++) mass += local[c] = t[c]! - (s?.[c] ?? 0);
      const idf = Math.log(n / docsOf.get(w)!);
      used += idf;
      for (let c = 0; c < C; c++) {
        const pcw = (local[c]! + p.beta * prior[c]!) / (mass + p.beta);
        z[c]! += idf * Math.log(pcw / prior[c]!);
      }
    }
    if (p.mean && used > 0) for (let c = 0; c < C; c++) z[c]! /= used;
    const max = Math.max(...z);
    const e = z.map((v) => Math.exp(v - max));
    const es = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / es);
  });
}

function combine(docs: readonly Doc[], corpus: readonly Float64Array[], alpha: number): Float64Array[] {
  const serverMean = new Map<string, { v: Float64Array; n: number }>();
  docs.forEach((d, i) => {
    let m = serverMean.get(d.server);
    if (!m) serverMean.set(d.server, (m = { v: new Float64Array(C), n: 0 }));
    for (let c = 0; c < C; c++) m.v[c]! += corpus[i]![c]!;
    m.n++;
  });
  return docs.map((d, i) => {
    const m = serverMean.get(d.server)!;
    const out = new Float64Array(C);
    for (let c = 0; c < C; c++) out[c] = d.base[c]! + alpha * (corpus[i]![c]! + m.v[c]! / m.n);
    return out;
  });
}

/** The dev pick of semantic evidence for the labelled tools, embedded as categories-ideas.ts does. */
async function semanticPick(
  tools: readonly BenchTool[],
  keys: ReadonlySet<string>,
): Promise<SemanticEvidence> {
  const embedder = cachedUseLite();
  const exemplars = await embedCategoryExemplars(embedder);
  const paragraphs = await embedder.embed(CATEGORY_IDS.map((id) => CATEGORIES[id].description));
  return {
    vectors: await labelledVectors(embedder, tools, keys),
    categories: exemplars.map((e, c) => [...e, paragraphs[c]!]),
    weight: 2,
  };
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--data');
  const dir = requireBenchDir(resolve(here, '../..', i >= 0 ? process.argv[i + 1]! : '../shared/bench'));
  const tools = CATALOGS.flatMap((f) => loadJson<BenchTool[]>(dir, f));
  const labelled = new Set([...loadLabels(), ...loadSecondLabels()].map((l) => l.key));
  const semantic = process.argv.includes('--semantic') ? await semanticPick(tools, labelled) : undefined;
  const options = semantic ? { scores: true, semantic } : { scores: true };
  const scored = new Map(categorizeCatalog(tools, options).tools.map((t) => [t.key, t]));
  const seen = new Set<string>();
  const docs: Doc[] = [];
  for (const t of tools) {
    const key = toolId(t);
    if (seen.has(key)) continue;
    seen.add(key);
    const s = scored.get(key)!.scores!;
    docs.push({
      key,
      server: t.server,
      words: wordsOf(t),
      base: Float64Array.from(CATEGORY_IDS.map((id) => s[id])),
    });
  }
  const index = new Map(docs.map((d, j) => [d.key, j]));
  const first = loadLabels();
  const second = loadSecondLabels().filter((l) => l.split === 'fresh-2');
  const measure = (scores: readonly Float64Array[]) => {
    const got = (key: string) => CATEGORY_IDS[argmax(scores[index.get(key)!]!)];
    const share = (list: readonly { key: string; category: string }[]) =>
      list.filter((l) => got(l.key) === l.category).length / list.length;
    return ['dev', 'held-out', 'fresh']
      .map((split) => share(first.filter((l) => l.split === split)))
      .concat(share(second))
      .map((v) => v.toFixed(2))
      .join(' / ');
  };
  const base = docs.map((d) => d.base);
  console.log(`${docs.length} tools; dev / held-out / fresh / fresh-2\n`);
  console.log(
    `| the method${semantic ? ' with semantic evidence' : ''} (no corpus evidence) | ${measure(base)} |`,
  );
  for (const mean of [false, true])
    for (const beta of [2, 10])
      for (const minDocs of [2])
        for (const alpha of mean ? [0.25, 0.5, 1, 2, 4] : [0.125, 0.25, 0.5])
          for (const rounds of [1, 2]) {
            let scores = base;
            for (let r = 0; r < rounds; r++)
              scores = combine(
                docs,
                corpusEvidence(docs, pseudo(scores), { alpha, beta, minDocs, mean }),
                alpha,
              );
            const name = `${mean ? 'mean' : 'sum'}, beta ${beta}, min ${minDocs}, alpha ${alpha}, rounds ${rounds}`;
            console.log(`| ${name} | ${measure(scores)} |`);
          }
}

await main();
