// The poisoning scanner over the real catalogs of ../shared/bench:
// `npx tsx bench/core/poison-scan-bench.ts [--data DIR] [--list]`. Prints each catalog's flag rate
// (tools with at least one finding), the count per rule, how `oversized` would fare at other
// floors, and the scan's cost per tool. `--list` prints every finding, to judge false positives.
// The catalogs are ordinary published tools, so every flag is a false positive unless the
// listing shows otherwise; docs/security.md records the numbers.
import {
  medianDescriptionLength,
  OVERSIZE,
  scanTool,
  SCAN_RULES,
  type ScanFinding,
  type ScanTool,
} from '../../src/catalog/index.js';
import { BIG_CATALOG_FILES, benchDataDir, type BenchTool } from './bench-data.js';
import { loadJson } from '../quality/data.js';
import { hasFlag } from './paths.js';
import { table } from './report.js';

const CATALOGS = [...BIG_CATALOG_FILES, 'catalog-metatool.json'];
const FLOORS = [2000, 3000, 5000];
const RATIOS = [8, 12, 16];

interface Scanned {
  id: string;
  tool: BenchTool;
  median: number;
  findings: ScanFinding[];
}

function toScanTool(t: BenchTool): ScanTool {
  return { name: t.name, description: t.description ?? null, inputSchema: t.inputSchema ?? undefined };
}

/** Scans a catalog, each tool against its own server's median description length. */
function scanCatalog(tools: readonly BenchTool[]): { scanned: Scanned[]; ms: number } {
  const byServer = new Map<string, BenchTool[]>();
  for (const t of tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
  const medians = new Map([...byServer].map(([s, ts]) => [s, medianDescriptionLength(ts)]));
  const started = performance.now();
  const scanned = tools.map((tool) => {
    const median = medians.get(tool.server)!;
    const findings = scanTool(toScanTool(tool), { medianDescriptionLength: median });
    return { id: `${tool.server}/${tool.name}`, tool, median, findings };
  });
  return { scanned, ms: performance.now() - started };
}

/** Tools whose description would be `oversized` at another ratio and floor. */
function oversizedAt(scanned: readonly Scanned[], ratio: number, floor: number): number {
  return scanned.filter(({ tool, median }) => {
    const length = tool.description?.length ?? 0;
    return length > floor && length > ratio * median;
  }).length;
}

const pct = (n: number, total: number) => `${((100 * n) / total).toFixed(2)}%`;

function main(): void {
  const dir = benchDataDir();
  const rows: string[][] = [];
  const floorRows: string[][] = [];
  const all: Scanned[] = [];
  for (const file of CATALOGS) {
    const tools = loadJson<BenchTool[]>(dir, file);
    const { scanned, ms } = scanCatalog(tools);
    all.push(...scanned);
    const flagged = scanned.filter((s) => s.findings.length > 0).length;
    const perRule = SCAN_RULES.map(
      (rule) => scanned.filter((s) => s.findings.some((f) => f.rule === rule)).length,
    );
    const perTool = `${((1000 * ms) / tools.length).toFixed(1)} µs`;
    rows.push([
      file,
      String(tools.length),
      `${flagged} (${pct(flagged, tools.length)})`,
      ...perRule.map(String),
      perTool,
    ]);
  }
  const flagged = all.filter((s) => s.findings.length > 0).length;
  rows.push([
    'all',
    String(all.length),
    `${flagged} (${pct(flagged, all.length)})`,
    ...SCAN_RULES.map(() => ''),
    '',
  ]);
  console.log(table(['catalog', 'tools', 'flagged', ...SCAN_RULES, 'scan/tool'], rows));
  for (const ratio of RATIOS)
    floorRows.push([`${ratio}x`, ...FLOORS.map((f) => String(oversizedAt(all, ratio, f)))]);
  console.log(
    `\noversized descriptions in all catalogs at other thresholds (now ${OVERSIZE.ratio}x and ${OVERSIZE.minChars}):`,
  );
  console.log(table(['ratio', ...FLOORS.map((f) => `> ${f} chars`)], floorRows));
  if (hasFlag('list')) {
    console.log('\nfindings:');
    for (const s of all)
      for (const f of s.findings) console.log(`${s.id}  ${f.rule}  ${f.where}  ${f.excerpt}`);
  }
}

main();
