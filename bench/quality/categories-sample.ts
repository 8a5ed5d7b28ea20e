// The seeded sample of tools labelled by hand in categories-labelled.json (docs/menu.md, "How
// categories are assigned"). `npx tsx bench/quality/categories-sample.ts [--data DIR] [--fresh]`
// prints each sampled tool's key, split and text for a person to label (--fresh: only the second
// sample; --split S: only split S; --context: as the second labeller read them, with the server's
// text and no split); the repo keeps only keys and labels.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadJson, requireBenchDir, toolId, type BenchTool } from './data.js';

/** The first sample's seed (issue 14): 150 tools, even positions dev, odd held out. */
export const SAMPLE_SEED = 14;
/** The second sample's seed: 50 more tools, labelled after the method was frozen ("fresh"). */
export const FRESH_SEED = 15;

/** Tools drawn per catalog: one per server (random servers), except MetaTool's single pseudo-server. */
export const SAMPLE_QUOTAS = [
  { file: 'catalog-metatool.json', count: 20, perServer: false },
  { file: 'catalog-livemcpbench.json', count: 35, perServer: true },
  { file: 'catalog-smithery-toolgym-distractors.json', count: 95, perServer: true },
] as const;
const FRESH_QUOTAS = [7, 12, 31];
/** The third sample's seed: 100 more tools, labelled by a second labeller after the method was frozen. */
export const FRESH2_SEED = 16;
const FRESH2_QUOTAS = [14, 24, 62];

/** Mulberry32: a small seeded PRNG, so the sample is the same on every machine. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** One sampled tool, with its split. */
export interface SampledTool {
  tool: BenchTool;
  split: 'dev' | 'held-out' | 'fresh' | 'fresh-2';
}

/** Per catalog, shuffled servers and one random tool of each (MetaTool: random tools), skipping `exclude`. */
function draw(
  dir: string,
  seed: number,
  counts: readonly number[],
  exclude: ReadonlySet<string>,
): BenchTool[] {
  const random = mulberry32(seed);
  const picked: BenchTool[] = [];
  SAMPLE_QUOTAS.forEach((quota, q) => {
    const tools = loadJson<BenchTool[]>(dir, quota.file).filter((t) => !exclude.has(toolId(t)));
    if (!quota.perServer) {
      picked.push(...shuffle(tools, random).slice(0, counts[q]));
      return;
    }
    const byServer = new Map<string, BenchTool[]>();
    for (const t of tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
    for (const server of shuffle([...byServer.keys()].sort(), random).slice(0, counts[q])) {
      const list = byServer.get(server)!;
      picked.push(list[Math.floor(random() * list.length)]!);
    }
  });
  return shuffle(picked, random);
}

/** The first sample (dev and held-out halves), then the fresh ones (tools not in any earlier sample). */
export function drawSample(dir: string): SampledTool[] {
  const first = draw(
    dir,
    SAMPLE_SEED,
    SAMPLE_QUOTAS.map((q) => q.count),
    new Set(),
  );
  const fresh = draw(dir, FRESH_SEED, FRESH_QUOTAS, new Set(first.map(toolId)));
  const fresh2 = draw(dir, FRESH2_SEED, FRESH2_QUOTAS, new Set([...first, ...fresh].map(toolId)));
  return [
    ...first.map((tool, i) => ({ tool, split: i % 2 === 0 ? ('dev' as const) : ('held-out' as const) })),
    ...fresh.map((tool) => ({ tool, split: 'fresh' as const })),
    ...fresh2.map((tool) => ({ tool, split: 'fresh-2' as const })),
  ];
}

/**
 * What the second labeller read of each tool (docs/menu.md, "A second labeller"): the key, the
 * description (500 characters), the parameter names, the server's description and up to 12 of
 * its other tools' names; no split, so the reader cannot tell dev from held-out.
 */
function withContext(dir: string, sample: readonly SampledTool[]): string {
  const all = SAMPLE_QUOTAS.flatMap((q) => loadJson<BenchTool[]>(dir, q.file));
  const names = new Map<string, string[]>();
  for (const t of all) names.set(t.server, [...(names.get(t.server) ?? []), t.name]);
  return sample
    .map(({ tool }) => {
      const others = (names.get(tool.server) ?? []).filter((n) => n !== tool.name);
      const lines = [
        toolId(tool),
        `  description: ${(tool.description ?? '').slice(0, 500)}`,
        `  params: ${Object.keys(tool.inputSchema?.properties ?? {}).join(', ')}`,
        ...(tool.server_description
          ? [`  server description: ${tool.server_description.slice(0, 300)}`]
          : []),
        // MetaTool's tools share one pseudo-server: their neighbours say nothing of them.
        ...(tool.server !== 'metatool' && others.length > 0
          ? [`  other tools of this server (${others.length}): ${others.slice(0, 12).join(', ')}`]
          : []),
      ];
      return `${lines.join('\n')}\n`;
    })
    .join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const i = process.argv.indexOf('--data');
  const dir = requireBenchDir(resolve(root, i >= 0 ? process.argv[i + 1]! : '../shared/bench'));
  const j = process.argv.indexOf('--split');
  const only = process.argv.includes('--fresh') ? 'fresh' : j >= 0 ? process.argv[j + 1] : undefined;
  const sample = drawSample(dir).filter((s) => !only || s.split === only);
  if (process.argv.includes('--context')) console.log(withContext(dir, sample));
  else
    for (const { tool, split } of sample) {
      const params = Object.keys(tool.inputSchema?.properties ?? {}).join(', ');
      console.log(
        `${toolId(tool)}  [${split}]\n  ${(tool.description ?? '').slice(0, 400)}\n  params: ${params}\n`,
      );
    }
}
