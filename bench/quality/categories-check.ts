// The fast categoriser against the plain reference (src/catalog/categories/categorize-reference.ts) on whole
// bench catalogs: every tool's category, tags and scores must be the same (docs/menu.md, Speed).
// Run by categories.ts, or alone: `npx tsx bench/quality/categories-check.ts [--data DIR]`
// (exit code 1 on any difference).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { categorizeServerReference } from '../../src/catalog/categories/categorize-reference.js';
import { categorizeServer, type CategorizeOptions, type CategorizeTool } from '../../src/catalog/index.js';
import { loadJson, requireBenchDir, type BenchTool } from './data.js';

/** The big catalog (6,975 tools), and MetaTool's. */
const CATALOGS = [
  'catalog-livemcpbench.json',
  'catalog-smithery-toolgym-distractors.json',
  'catalog-metatool.json',
];
/** The defaults, and options that move every weight. */
const OPTIONS: Partial<CategorizeOptions>[] = [{}, { serverWeight: 0 }, { nameWeight: 1.5, paramWeight: 0 }];

interface Server {
  id: string;
  description?: string;
  tools: CategorizeTool[];
}

/** A catalog's servers as a sync gives them (carte categorize groups the same way). */
function servers(tools: readonly BenchTool[]): Server[] {
  const byId = new Map<string, Server>();
  for (const t of tools) {
    let server = byId.get(t.server);
    if (!server) byId.set(t.server, (server = { id: t.server, tools: [] }));
    if (server.description === undefined && t.server_description) server.description = t.server_description;
    const key = `${t.server}/${t.name}`;
    if (server.tools.some((x) => x.key === key)) continue;
    server.tools.push({
      key,
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      paramNames: Object.keys(t.inputSchema?.properties ?? {}),
    });
  }
  return [...byId.values()];
}

export interface ReferenceCheck {
  /** Tools compared, once per option set. */
  tools: number;
  /** "key (options): fast ... reference ...", at most 10. */
  differences: string[];
}

/** Categorises every server of the catalogs both ways, with each option set, and compares. */
export function checkAgainstReference(dir: string): ReferenceCheck {
  const check: ReferenceCheck = { tools: 0, differences: [] };
  for (const file of CATALOGS) {
    for (const server of servers(loadJson<BenchTool[]>(dir, file))) {
      for (const options of OPTIONS) {
        const opts = { ...options, scores: true };
        const fast = categorizeServer(server, server.tools, opts);
        const reference = categorizeServerReference(server, server.tools, opts);
        for (const [key, got] of fast) {
          check.tools++;
          const want = reference.get(key);
          if (JSON.stringify(got) === JSON.stringify(want) || check.differences.length >= 10) continue;
          check.differences.push(
            `${key} ${JSON.stringify(options)}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`,
          );
        }
      }
    }
  }
  return check;
}

/** One line for the report. */
export function referenceLine(check: ReferenceCheck): string {
  return check.differences.length === 0
    ? `reference check: the same categories, tags and scores as the plain reference for all ${check.tools} tool × option runs`
    : `reference check FAILED: ${check.differences.length}+ differences, e.g. ${check.differences[0]}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const here = dirname(fileURLToPath(import.meta.url));
  const i = process.argv.indexOf('--data');
  const dir = requireBenchDir(resolve(here, '../..', i >= 0 ? process.argv[i + 1]! : '../shared/bench'));
  const check = checkAgainstReference(dir);
  console.log(referenceLine(check));
  for (const d of check.differences) console.log(`  ${d}`);
  if (check.differences.length > 0) process.exitCode = 1;
}
