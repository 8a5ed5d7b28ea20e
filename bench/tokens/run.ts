// Token bench: `npx tsx bench/tokens/run.ts [--data DIR] [--max-tokens N]` (npm run bench:tokens).
// How many tokens an agent's context pays for the tool menu, for the demo catalog (synced in
// process into a temp dir) and the big bench catalog (../shared/bench, or --data DIR; 507 servers,
// written into a temp store, never started): every tool listed at once, against Carte's answers
// tier by tier (bench/tokens/tiers.ts), each also with `maxTokens` (default 1,000). Checks the
// target of issue 14: every tier answer for a 500-server catalog under 2 % of the full listing;
// then code mode (bench/tokens/code-mode.ts, issue 43): run_code against call_tool step by step.
// Counts are exact (gpt-tokenizer). Prints markdown; writes bench/out/tokens.json.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ENCODINGS, loadTokenizer, type Tokenizer } from '../../src/gateway/index.js';
import { benchDataDir, loadBigCatalog } from '../core/bench-data.js';
import { writeBigCatalog } from '../core/big-catalog.js';
import { numberFlag, tempDir } from '../core/paths.js';
import { machine, machineLine, progress, table, writeJson } from '../core/report.js';
import { codeModeReport } from './code-mode.js';
import { syncDemo } from './demo-catalog.js';
import { bigCatalogTools, listingText, metaListing, storedCatalogTools } from './listings.js';
import { openMenuCatalog, PINNED, USED, type MenuCatalog } from './menu-catalog.js';
import { measureTiers, partLines, TARGET, targetLines, tierTable, type CatalogTiers } from './tier-report.js';

interface Size {
  what: string;
  tools: number;
  characters: number;
  /** Tokens per encoding. */
  tokens: Record<string, number>;
}

function measure(what: string, tools: number, text: string, tokenizers: Tokenizer[]): Size {
  const tokens = Object.fromEntries(tokenizers.map((t) => [t.encoding, t.count(text)]));
  return { what, tools, characters: text.length, tokens };
}

const fmt = (n: number): string => n.toLocaleString('en-US');

function listingTable(sizes: Size[]): string {
  const [meta] = sizes;
  const header = [
    '`tools/list` of',
    'tools',
    'characters',
    ...ENCODINGS.map((e) => `tokens (${e})`),
    'vs meta',
  ];
  const rows = sizes.map((s) => [
    s.what,
    fmt(s.tools),
    fmt(s.characters),
    ...ENCODINGS.map((e) => fmt(s.tokens[e]!)),
    s === meta ? '1x' : `${fmt(Math.round(s.tokens.o200k_base! / meta!.tokens.o200k_base!))}x`,
  ]);
  return table(header, rows);
}

/** The demo and the big bench catalog, each in its own temp store, ready to browse. */
async function openCatalogs(dir: string): Promise<MenuCatalog[]> {
  progress('tokens: syncing the demo catalog');
  const demo = await syncDemo(join(dir, 'demo'));
  progress('tokens: writing the big bench catalog into a store');
  const raw = loadBigCatalog(benchDataDir());
  const big = await writeBigCatalog(mkdirSync(join(dir, 'big'), { recursive: true })!, raw);
  return [
    await openMenuCatalog('demo catalog', demo, await storedCatalogTools(demo.dataDir)),
    await openMenuCatalog('big bench catalog', big, bigCatalogTools(raw)),
  ];
}

function picksLine(t: CatalogTiers): string {
  const { category, server, typicalTool, largestTool } = t.picks;
  return `${t.label}: ${fmt(t.tools)} tools, ${fmt(t.servers)} servers; biggest category \`${category}\`, biggest server \`${server}\`, typical tool \`${typicalTool}\`, largest \`${largestTool}\`.`;
}

async function main(): Promise<void> {
  const m = machine();
  const maxTokens = numberFlag('max-tokens', 1000);
  const start = performance.now();
  const tokenizers = await Promise.all(ENCODINGS.map((e) => loadTokenizer(e)));
  const loadMs = performance.now() - start;
  const out: string[] = ['# Carte token bench', '', machineLine(m), ''];
  out.push(`Tokenizers (${ENCODINGS.join(', ')}) loaded in ${Math.round(loadMs)} ms.`);

  const tmp = tempDir('carte-tokens-');
  const tiers: CatalogTiers[] = [];
  const sizes = [measure('Carte: the 4 meta-tools (no digest)', 4, metaListing(), tokenizers)];
  try {
    const catalogs = await openCatalogs(tmp.dir);
    for (const c of catalogs) {
      progress(`tokens: ${c.label}`);
      sizes.push(measure(`every tool: ${c.label}`, c.tools.length, listingText(c.tools), tokenizers));
      tiers.push(await measureTiers(c, tokenizers[0]!, maxTokens));
      await c.close();
    }
  } finally {
    tmp.cleanup();
  }

  out.push('', '## Listing sizes', '', listingTable(sizes));
  out.push('', '## Menu tiers', '');
  out.push(
    `Each catalog has ${PINNED} tools pinned by rules and ${USED} with calls over the last week (hot list full).`,
  );
  for (const t of tiers) {
    out.push('', picksLine(t), '', tierTable(t), '', 'Tokens by part of the answer (costliest first):', '');
    out.push(...partLines(t));
  }
  const held = tiers.filter((t) => t.servers >= TARGET.servers);
  out.push('');
  if (held.length === 0) {
    const most = Math.max(...tiers.map((t) => t.servers));
    out.push(`No catalog has ${TARGET.servers} servers (the most: ${most}): the target was not checked.`);
  }
  for (const t of held) out.push(...targetLines(t));
  progress('tokens: code mode (run_code against call_tool step by step)');
  const codeMode = await codeModeReport();
  out.push('', '## Code mode (run_code)', '', ...codeMode);
  process.stdout.write(`${out.join('\n')}\n`);
  progress(
    `wrote ${writeJson('tokens', { machine: m, tokenizerLoadMs: loadMs, maxTokens, sizes, tiers, codeMode })}`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
