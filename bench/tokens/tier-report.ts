// Measures every tier of a catalog (tiers.ts) in tokens and as a share of the full listing, checks
// the target of issue 14 (every tier answer for a 500-server catalog under 2 % of the full
// listing) and renders the markdown.
import type { Tokenizer } from '../../src/gateway/index.js';
import { table } from '../core/report.js';
import type { MenuCatalog } from './menu-catalog.js';
import { pickRequests, TIERS, type Picks, type TierAnswer, type TierId } from './tiers.js';

/** The target: for catalogs of at least this many servers, every tier answer under this share. */
export const TARGET = { servers: 500, share: 0.02 } as const;

/** One tier's answer, measured. */
export interface TierRow {
  id: TierId;
  what: string;
  request: string;
  characters: number;
  tokens: number;
  /** Of the full listing's tokens. */
  share: number;
  /** The answer's costliest parts (top-level fields; tools of a listing), up to PARTS, costliest first. */
  parts: { part: string; tokens: number }[];
  /** The same request with `maxTokens`: its tokens and whether the budget cut it, or why it failed. */
  bounded?: { tokens: number; cut: boolean } | { error: string };
  /** PASS or MISS when the catalog is held to the target and the tier is; else undefined. */
  verdict?: 'PASS' | 'MISS';
}

export interface CatalogTiers {
  label: string;
  servers: number;
  tools: number;
  picks: Picks;
  maxTokens: number;
  fullTokens: number;
  rows: TierRow[];
}

const fmt = (n: number): string => n.toLocaleString('en-US');
const pct = (share: number): string => `${(share * 100).toFixed(share < 0.001 ? 3 : 2)} %`;
/** A part's share of its answer, in whole percent. */
const share = (part: number, whole: number): string =>
  part * 100 < whole ? '< 1 %' : `${Math.round((100 * part) / whole)} %`;

/** Parts kept per answer in the report. */
const PARTS = 4;

function costliest(answer: TierAnswer, count: (text: string) => number): TierRow['parts'] {
  const parts = Object.entries(answer.parts).map(([part, text]) => ({ part, tokens: count(text) }));
  return parts.sort((a, b) => b.tokens - a.tokens).slice(0, PARTS);
}

async function bounded(run: () => Promise<TierAnswer | undefined>, count: (t: string) => number) {
  try {
    const answer = await run();
    return answer && { tokens: count(answer.text), cut: 'omitted' in answer.parts };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** Every tier of `c`, plain and with `maxTokens`. */
export async function measureTiers(
  c: MenuCatalog,
  tokenizer: Tokenizer,
  maxTokens: number,
): Promise<CatalogTiers> {
  const count = (text: string) => tokenizer.count(text);
  const picks = await pickRequests(c);
  const held = c.servers >= TARGET.servers;
  const measured = [];
  for (const tier of TIERS) {
    const answer = (await tier.answer(c, picks))!;
    const within = await bounded(() => tier.answer(c, picks, maxTokens), count);
    measured.push({ tier, answer, tokens: count(answer.text), within });
  }
  const fullTokens = measured.find((m) => m.tier.id === 'full')!.tokens;
  const rows = measured.map(({ tier, answer, tokens, within }): TierRow => {
    const share = tokens / fullTokens;
    return {
      id: tier.id,
      what: tier.what,
      request: answer.request,
      characters: answer.text.length,
      tokens,
      share,
      parts: costliest(answer, count),
      ...(within ? { bounded: within } : {}),
      ...(held && tier.target ? { verdict: share < TARGET.share ? 'PASS' : 'MISS' } : {}),
    };
  });
  return { label: c.label, servers: c.servers, tools: c.tools.length, picks, maxTokens, fullTokens, rows };
}

function boundedCell(row: TierRow, maxTokens: number): string {
  if (!row.bounded) return 'n/a';
  if ('error' in row.bounded) return `refused: ${row.bounded.error}`;
  const { tokens, cut } = row.bounded;
  return `${fmt(tokens)}${cut ? ' (cut)' : ''}${tokens > maxTokens ? ' OVER BUDGET' : ''}`;
}

/** The catalog's table: one row per tier. */
export function tierTable(t: CatalogTiers): string {
  const header = [
    'answer',
    'request',
    'characters',
    'tokens (o200k)',
    '% of full listing',
    'costliest part (tokens, share)',
    `with maxTokens ${fmt(t.maxTokens)}`,
    `target (< ${TARGET.share * 100} %)`,
  ];
  const rows = t.rows.map((r) => [
    `${r.id}: ${r.what}`,
    `\`${r.request.replaceAll('|', '\\|')}\``,
    fmt(r.characters),
    fmt(r.tokens),
    pct(r.share),
    r.parts[0]
      ? `${r.parts[0].part} (${fmt(r.parts[0].tokens)}, ${share(r.parts[0].tokens, r.tokens)})`
      : '-',
    boundedCell(r, t.maxTokens),
    r.verdict ?? '-',
  ]);
  return table(header, rows);
}

/** What the target check says for a catalog held to it: PASS, or each miss with its overshoot and cost. */
export function targetLines(t: CatalogTiers): string[] {
  const line = Math.floor(t.fullTokens * TARGET.share);
  const held = t.rows.filter((r) => r.verdict);
  const misses = held.filter((r) => r.verdict === 'MISS');
  const head = `Target on ${t.label} (${fmt(t.servers)} servers): every tier answer under ${fmt(line)} tokens (${pct(TARGET.share)} of ${fmt(t.fullTokens)}): ${held.length - misses.length}/${held.length} PASS.`;
  return [
    head,
    ...misses.map(
      (r) =>
        `- MISS ${r.id}: ${fmt(r.tokens)} tokens (${pct(r.share)}), ${fmt(r.tokens - line)} over; costliest parts: ${partList(r)}.`,
    ),
  ];
}

const partList = (r: TierRow): string => r.parts.map((p) => `${p.part} ${fmt(p.tokens)}`).join(', ');

/** Where each menu answer's tokens go, by top-level field (a listing's parts are its tools: left out). */
export function partLines(t: CatalogTiers): string[] {
  return t.rows.filter((r) => r.id !== 'meta' && r.id !== 'full').map((r) => `- ${r.id}: ${partList(r)}`);
}
