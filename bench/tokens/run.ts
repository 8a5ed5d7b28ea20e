// Token bench: `npx tsx bench/tokens/run.ts [--data DIR] [--demo-data DIR]` (npm run bench:tokens).
// How many tokens an agent's context pays for the tool menu: Carte's four meta-tools against every
// tool listed at once, for the big bench catalog and a stored (demo) catalog, and later per menu
// tier (bench/tokens/tiers.ts). Counts are exact (gpt-tokenizer). Prints markdown; writes
// bench/out/tokens.json.
import { ENCODINGS, loadTokenizer, type Tokenizer } from '../../src/gateway/index.js';
import { machine, machineLine, progress, table, writeJson } from '../core/report.js';
import { bigCatalogTools, listingText, metaListing, storedCatalogTools } from './listings.js';
import { TIERS, type MeasuredCatalog } from './tiers.js';

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

/** Each catalog's size at each tier, or "not yet" for a tier not built. */
function tierRows(catalogs: MeasuredCatalog[], tokenizer: Tokenizer): string[][] {
  return TIERS.map((tier) => [
    `${tier.id}: ${tier.what}`,
    ...catalogs.map((c) => {
      const text = tier.render(c);
      return text === undefined ? 'not yet' : fmt(tokenizer.count(text));
    }),
  ]);
}

async function main(): Promise<void> {
  const m = machine();
  const start = performance.now();
  const tokenizers = await Promise.all(ENCODINGS.map((e) => loadTokenizer(e)));
  const loadMs = performance.now() - start;
  const [o200k] = tokenizers;
  const out: string[] = ['# Carte token bench', '', machineLine(m), ''];
  out.push(`Tokenizers (${ENCODINGS.join(', ')}) loaded in ${Math.round(loadMs)} ms.`);

  const meta = measure('Carte: the 4 meta-tools', 4, metaListing(), tokenizers);
  const sizes = [meta];
  const catalogs: MeasuredCatalog[] = [];
  progress('tokens: the big bench catalog');
  const big = bigCatalogTools();
  catalogs.push({ label: 'big bench catalog', tools: big });
  sizes.push(measure('every tool: big bench catalog', big.length, listingText(big), tokenizers));
  const stored = storedCatalogTools();
  if (stored.tools) {
    catalogs.push({ label: `stored catalog (${stored.dir})`, tools: stored.tools });
    sizes.push(
      measure(`every tool: stored catalog`, stored.tools.length, listingText(stored.tools), tokenizers),
    );
  } else {
    out.push(
      '',
      `No stored catalog in ${stored.dir}: run \`carte sync --data-dir DIR\` (the demo when no config file is found), then pass \`--demo-data DIR\`.`,
    );
  }

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
    s === meta ? '1x' : `${fmt(Math.round(s.tokens.o200k_base! / meta.tokens.o200k_base!))}x`,
  ]);
  out.push('', '## Listing sizes', '', table(header, rows));
  out.push('', '## Menu tiers (o200k_base tokens)', '');
  out.push(
    table(
      ['tier', ...catalogs.map((c) => `${c.label}, ${fmt(c.tools.length)} tools`)],
      tierRows(catalogs, o200k!),
    ),
  );
  process.stdout.write(`${out.join('\n')}\n`);
  progress(`wrote ${writeJson('tokens', { machine: m, tokenizerLoadMs: loadMs, sizes })}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
