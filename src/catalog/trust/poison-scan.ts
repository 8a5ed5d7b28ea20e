// The poisoning scanner (issue 15, item 7): flags tool text that carries instructions for the
// model rather than documentation for it. Pure: a tool in, findings out. Every string an agent
// reads is scanned: name, title, description, each string of the input schema (descriptions,
// titles, defaults, enums, examples, property names) and of the annotations.
//
// Rules, and what each misses (tables in poison-patterns.ts):
// - `model-instructions`: "ignore (all) previous instructions", "do not tell the user", "without
//   informing the user", `<IMPORTANT>`, `<system>`, `<instructions>` and similar tags, chat-template
//   tokens (`<|im_start|>`, `[INST]`), "note to the AI", "you are now", "before using this tool,
//   read <a file>". Not flagged: bare "you must", "IMPORTANT:", "before using this tool, call X":
//   real tools use them to steer workflow (22, 75 and 8 of the 7,174 bench tools). Misses
//   paraphrases, other languages, homoglyphs (Cyrillic "о" in "ignоre") and instructions split
//   across strings.
// - `hidden-unicode`: zero-width spaces and word joiners, bidi embeddings/overrides/isolates
//   (U+202A-202E, U+2066-2069), tag characters (U+E0000 block; the finding shows what they spell),
//   Hangul fillers, runs of variation selectors. ZWJ/ZWNJ/LRM/RLM are allowed next to emoji and
//   non-Latin letters, one variation selector after an emoji, and a BOM at the start of a string.
//   Misses look-alike letters and text hidden by markup a client renders (HTML comments, CSS).
// - `secret-access`: an access verb in the imperative ("read", "include", "send"; never "reads")
//   before a place that holds secrets (~/.ssh, id_rsa, .env, mcp.json, claude_desktop_config,
//   ~/.aws, .netrc, /etc/passwd, keychains, seed phrases), or before the user's / all / stored
//   API keys, tokens, passwords, credentials or environment variables. "Your API key" in a
//   parameter's description is fine. Misses secrets named indirectly ("the file in your home dir").
// - `exfiltration`: a request to put private data (the conversation, its contents, the contents
//   of a file, the user's data) into a parameter or somewhere ("pass its content as 'sidenote'",
//   "include the contents in"), to send data to a fixed URL, or a markdown image whose URL has a
//   slot to fill. Misses exfiltration through an ordinary-looking parameter the tool just asks for.
// - `oversized`: a description over OVERSIZE.ratio times the server's median description length
//   and over OVERSIZE.minChars (a schema string: over OVERSIZE.minSchemaChars): long text hides
//   its tail from the person who reads the first lines. Needs `peers`; a one-tool server never
//   trips it. Flags the odd legitimately long tool too.
//
// Flag rate on ../shared/bench (`npx tsx bench/core/poison-scan-bench.ts`): 1 of 7,174 real tools
// (0.01%), Notion's 14,667-character create-pages (`oversized`); docs/security.md ("Poisoning and drift") has more.
// Phrase rules run on normalised text, so an invisible character inside "ign\u200Bore" or
// instructions spelled in tag characters are still read.
import {
  ALWAYS_HIDDEN,
  BOM,
  CONTEXT_MARK,
  decodeTags,
  EXFIL_PATTERNS,
  INSTRUCTION_PATTERNS,
  INVISIBLE,
  MARK_NEIGHBOUR,
  SECRET_PATTERNS,
  SELECTOR_RUN,
} from './poison-patterns.js';

export const SCAN_RULES = [
  'model-instructions',
  'hidden-unicode',
  'secret-access',
  'exfiltration',
  'oversized',
] as const;
export type ScanRule = (typeof SCAN_RULES)[number];

/** One reason a tool looks poisoned. `excerpt` is short and safe to print (no raw control characters). */
export interface ScanFinding {
  rule: ScanRule;
  /** Where the text is: 'description', 'inputSchema.properties.path.description', ... */
  where: string;
  excerpt: string;
}

/** The parts of a tool the scanner reads. */
export interface ScanTool {
  name: string;
  title?: string | null;
  description?: string | null;
  inputSchema?: unknown;
  annotations?: unknown;
}

/** What the tool's neighbours on its server look like (for `oversized`). */
export interface ScanPeers {
  medianDescriptionLength: number;
}

/**
 * `oversized` thresholds. `ratio` to the server's median description length: 12 (8 flagged four
 * bench tools, three of them script generators at 9x-11x their server's median; 12 leaves one,
 * a 14,667-character spec at 33x). Floors in characters keep a short server from flagging a
 * merely thorough tool; a schema string gets more room (a real one reaches 2,140).
 */
export const OVERSIZE = { ratio: 12, minChars: 2000, minSchemaChars: 4000 } as const;

/** Scan budget: strings visited per tool, nesting depth, findings kept. */
const LIMITS = { strings: 5000, depth: 32, findings: 20 } as const;
const EXCERPT_CONTEXT = 30;
const EXCERPT_MATCH = 70;

/** Scans one tool; returns its findings (none for an ordinary tool), at most one per rule and string. */
export function scanTool(tool: ScanTool, peers?: ScanPeers): ScanFinding[] {
  const findings: ScanFinding[] = [];
  const median = peers?.medianDescriptionLength;
  const add = (f: ScanFinding | undefined) => {
    if (f && findings.length < LIMITS.findings) findings.push(f);
  };
  const scan = (where: string, text: string, kind: 'description' | 'schema' | 'other') => {
    for (const f of scanText(where, text)) add(f);
    if (median !== undefined && kind !== 'other') add(oversized(where, text, median, kind));
  };
  scan('name', tool.name, 'other');
  if (typeof tool.title === 'string') scan('title', tool.title, 'other');
  if (typeof tool.description === 'string') scan('description', tool.description, 'description');
  walkStrings(tool.inputSchema, 'inputSchema', (where, text) => scan(where, text, 'schema'));
  walkStrings(tool.annotations, 'annotations', (where, text) => scan(where, text, 'other'));
  return findings;
}

/** The median description length of a server's tools (a missing description counts as 0). */
export function medianDescriptionLength(tools: readonly { description?: string | null }[]): number {
  const lengths = tools.map((t) => t.description?.length ?? 0).sort((a, b) => a - b);
  if (lengths.length === 0) return 0;
  const mid = lengths.length >> 1;
  return lengths.length % 2 ? lengths[mid]! : (lengths[mid - 1]! + lengths[mid]!) / 2;
}

/** Text with every control, format, private-use and unassigned character shown as `\u{XXXX}`. */
export function escapeUnsafe(text: string): string {
  return text.replace(
    /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu,
    (c) =>
      c === '\n'
        ? '\\n'
        : c === '\t'
          ? '\\t'
          : `\\u{${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`,
  );
}

function scanText(where: string, raw: string): ScanFinding[] {
  const out: ScanFinding[] = [];
  const hidden = findHidden(raw);
  if (hidden !== undefined) out.push({ rule: 'hidden-unicode', where, excerpt: hiddenExcerpt(raw, hidden) });
  const text = normalise(raw);
  const rules: [ScanRule, readonly RegExp[]][] = [
    ['model-instructions', INSTRUCTION_PATTERNS],
    ['secret-access', SECRET_PATTERNS],
    ['exfiltration', EXFIL_PATTERNS],
  ];
  for (const [rule, patterns] of rules) {
    for (const pattern of patterns) {
      const m = pattern.exec(text);
      if (m) {
        out.push({ rule, where, excerpt: excerpt(text, m.index, m[0].length) });
        break;
      }
    }
  }
  return out;
}

/** Index of the first hidden character, or undefined. */
function findHidden(text: string): number | undefined {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  const offset = text.length - body.length;
  const at = (i: number | undefined) => (i === undefined || i < 0 ? undefined : i + offset);
  const candidates = [
    at(body.search(ALWAYS_HIDDEN)),
    at(body.indexOf(BOM)),
    at(body.search(SELECTOR_RUN)),
    at(misplacedMark(body)),
  ].filter((i): i is number => i !== undefined);
  return candidates.length ? Math.min(...candidates) : undefined;
}

/** A joiner or directional mark with no emoji, combining mark or non-Latin letter beside it. */
function misplacedMark(text: string): number | undefined {
  for (const m of text.matchAll(CONTEXT_MARK)) {
    const before = [...text.slice(Math.max(0, m.index - 2), m.index)].pop() ?? '';
    const after = [...text.slice(m.index + 1, m.index + 3)][0] ?? '';
    if (!MARK_NEIGHBOUR.test(before) && !MARK_NEIGHBOUR.test(after)) return m.index;
  }
  return undefined;
}

function hiddenExcerpt(raw: string, index: number): string {
  const shown = excerpt(raw, index, 1);
  const smuggled = decodeTags(raw.match(/[\u{E0000}-\u{E007F}]+/u)?.[0] ?? '').trim();
  return smuggled ? `${shown} (tag characters spell "${clip(escapeUnsafe(smuggled), 60)}")` : shown;
}

/** The text a phrase rule reads: tags decoded, invisible characters dropped, NFKC, straight quotes, spaces collapsed. */
function normalise(text: string): string {
  return decodeTags(text)
    .replace(INVISIBLE, '')
    .normalize('NFKC')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ');
}

function excerpt(text: string, index: number, length: number): string {
  const start = Math.max(0, index - EXCERPT_CONTEXT);
  const end = Math.min(text.length, index + Math.min(length, EXCERPT_MATCH) + EXCERPT_CONTEXT);
  const body = escapeUnsafe(text.slice(start, end).replace(/\s+/g, ' ')).trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

function oversized(
  where: string,
  text: string,
  median: number,
  kind: 'description' | 'schema',
): ScanFinding | undefined {
  const floor = kind === 'description' ? OVERSIZE.minChars : OVERSIZE.minSchemaChars;
  if (text.length <= floor || text.length <= OVERSIZE.ratio * median) return undefined;
  const ratio = median > 0 ? `${Math.round(text.length / median)}x` : 'far over';
  return {
    rule: 'oversized',
    where,
    excerpt: `${text.length} characters, ${ratio} the server's median of ${Math.round(median)}`,
  };
}

/** Calls `visit` for every string (values and object keys) in a JSON value, with its path. */
function walkStrings(value: unknown, path: string, visit: (where: string, text: string) => void): void {
  let budget: number = LIMITS.strings;
  const walk = (v: unknown, where: string, depth: number): void => {
    if (budget <= 0 || depth > LIMITS.depth) return;
    if (typeof v === 'string') {
      budget--;
      visit(where, v);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${where}[${i}]`, depth + 1));
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        const child = `${where}.${escapeUnsafe(key)}`;
        budget--;
        visit(`${child} (key)`, key);
        walk(item, child, depth + 1);
      }
    }
  };
  walk(value, path, 0);
}
