// Ideas for the categoriser measured against the labelled sample, each as dev / held-out / fresh
// (docs/menu.md, "Tried and dropped"): `npx tsx bench/quality/categories-ideas.ts [--data DIR]`.
// Semantic evidence embeds only the 200 labelled tools and the category phrases with USE-Lite
// (about 10 s the first time; vectors are cached in bench/out, which git ignores).
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CATEGORIES,
  CATEGORY_IDS,
  categorizeServer,
  embedCategoryExemplars,
  FALLBACK_CATEGORY,
  type SemanticEvidence,
} from '../../src/catalog/index.js';
import {
  CEDICT_TRANSLATOR,
  createUseLiteEmbedder,
  embeddableToolText,
  USE_LITE,
  type Embedder,
} from '../../src/search/index.js';
import { agreement, CATALOGS, loadLabels, method, type Label, type Variant } from './categories.js';
import { loadJson, requireBenchDir, toolId, toSearchDoc, type BenchTool } from './data.js';
import { cachedEmbedder, loadVectorCache } from './vector-cache.js';

const here = import.meta.dirname;
const CACHE = join(here, `../out/vectors-categories-${USE_LITE.id}.jsonl`);
const WEIGHTS = [0.5, 1, 2, 4];

/** USE-Lite with its vectors cached in bench/out (the first run embeds, later ones read). */
export function cachedUseLite(): Embedder {
  const cache = loadVectorCache(CACHE, USE_LITE.dimension);
  return cachedEmbedder(cache, CACHE, { ...USE_LITE, load: createUseLiteEmbedder });
}

/** The labelled tools' vectors (the text hybrid search embeds), keyed by tool key. */
export async function labelledVectors(
  embedder: Embedder,
  tools: readonly BenchTool[],
  keys: ReadonlySet<string>,
): Promise<Map<string, Float32Array>> {
  const texts = tools
    .filter((t) => keys.has(toolId(t)))
    .map((t) => [toolId(t), embeddableToolText(toSearchDoc(t))] as const)
    .filter((e): e is readonly [string, string] => e[1] !== undefined);
  const vectors = await embedder.embed(texts.map((e) => e[1]));
  return new Map(texts.map((e, i) => [e[0], vectors[i]!]));
}

async function semanticVariants(tools: readonly BenchTool[], keys: ReadonlySet<string>): Promise<Variant[]> {
  const embedder = cachedUseLite();
  const vectors = await labelledVectors(embedder, tools, keys);
  const exemplars = await embedCategoryExemplars(embedder);
  const paragraphs = (await embedder.embed(CATEGORY_IDS.map((id) => CATEGORIES[id].description))).map((v) => [
    v,
  ]);
  const both = exemplars.map((e, c) => [...e, ...paragraphs[c]!]);
  const out: Variant[] = [];
  for (const [what, categories] of [
    ['exemplar phrases', exemplars],
    ['description paragraphs', paragraphs],
    ['phrases and paragraph', both],
  ] as const) {
    for (const weight of WEIGHTS) {
      const semantic: SemanticEvidence = { vectors, categories, weight };
      out.push(method(`semantic (${what}) × ${weight}`, { semantic }));
    }
  }
  for (const serverWeight of [0.5, 2]) {
    const semantic: SemanticEvidence = { vectors, categories: paragraphs, weight: 1 };
    out.push(
      method(`semantic (description paragraphs) × 1, serverWeight ${serverWeight}`, {
        semantic,
        serverWeight,
      }),
    );
  }
  const alone: SemanticEvidence = { vectors, categories: exemplars, weight: 1000 };
  out.push(method('semantic alone (exemplar phrases, lexical as tie-break)', { semantic: alone }));
  return out;
}

/** Tools grouped by server, as categorizeCatalog groups them. */
function byServer(tools: readonly BenchTool[]): Map<string, BenchTool[]> {
  const out = new Map<string, BenchTool[]>();
  for (const t of tools) out.set(t.server, [...(out.get(t.server) ?? []), t]);
  return out;
}

/**
 * A category prior: each category's share of the dev labels (best = 1) times alpha, added to the
 * blended scores (best = 1), so near-ties go to the commoner category.
 */
function withPrior(alpha: number, labels: readonly Label[]): Variant {
  const counts = new Map<string, number>();
  for (const l of labels) if (l.split === 'dev') counts.set(l.category, (counts.get(l.category) ?? 0) + 1);
  const top = Math.max(...counts.values());
  return {
    name: `category prior (dev shares) × ${alpha}`,
    categorize(tools) {
      const out = new Map<string, string>();
      for (const [id, list] of byServer(tools)) {
        const description = list.find((t) => t.server_description)?.server_description;
        const input = list.map((t) => ({
          key: toolId(t),
          name: t.name,
          ...(t.description ? { description: t.description } : {}),
          paramNames: Object.keys(t.inputSchema?.properties ?? {}),
        }));
        const server = { id, ...(description ? { description } : {}) };
        for (const [key, c] of categorizeServer(server, input, { scores: true })) {
          const scores = Object.entries(c.scores!).map(
            ([cat, s]) =>
              [
                cat,
                s > 0 || c.category !== FALLBACK_CATEGORY ? s + (alpha * (counts.get(cat) ?? 0)) / top : 0,
              ] as const,
          );
          const best = scores.reduce((a, b) => (b[1] > a[1] ? b : a));
          out.set(key, best[1] > 0 ? best[0] : FALLBACK_CATEGORY);
        }
      }
      return out;
    },
  };
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--data');
  const dir = requireBenchDir(resolve(here, '../..', i >= 0 ? process.argv[i + 1]! : '../shared/bench'));
  const labels = loadLabels();
  const tools = CATALOGS.flatMap((f) => loadJson<BenchTool[]>(dir, f));
  const variants: Variant[] = [
    method('default', {}),
    method('CC-CEDICT glosses', { translator: CEDICT_TRANSLATOR }),
    ...[0.02, 0.05, 0.1, 0.2].map((alpha) => withPrior(alpha, labels)),
    ...(await semanticVariants(tools, new Set(labels.map((l) => l.key)))),
  ];
  console.log('| idea | dev | held-out | fresh | all |\n|---|---:|---:|---:|---:|');
  for (const v of variants) {
    const r = agreement(v, tools, labels);
    const cells = ['dev', 'held-out', 'fresh', ''].map((s) => r.bySplit[s]!.toFixed(2));
    console.log(`| ${v.name} | ${cells.join(' | ')} |`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
