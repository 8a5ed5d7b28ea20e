// Carte's compact counter against gpt-tokenizer itself (the oracle, issue 28 item 5): the same
// count for every text, in both encodings, special tokens read as plain text.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { ENCODINGS, loadTokenizer, type Encoding } from '../index.js';

const ORACLES = { o200k_base: o200k, cl100k_base: cl100k } as const;
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
const oracleCount = (encoding: Encoding, text: string) => ORACLES[encoding].countTokens(text, PLAIN_TEXT);

const BENCH =
  process.env.CARTE_BENCH_DATA ?? join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'bench');
const FILES = ['catalog-livemcpbench.json', 'catalog-smithery-toolgym-distractors.json'];
const present = FILES.every((f) => existsSync(join(BENCH, f)));
if (!present)
  process.stderr.write(`tokenizer catalog cases skipped: no bench data at ${BENCH} (${FILES.join(', ')})\n`);

/** Each bench tool as an MCP listing entry, the text the tokens-saved statistic counts. */
function loadListingEntries(): string[] {
  type BenchTool = { name: string; description?: string | null; inputSchema?: unknown };
  const tools = FILES.flatMap((f) => JSON.parse(readFileSync(join(BENCH, f), 'utf8')) as BenchTool[]);
  return tools.map((t) =>
    JSON.stringify({ name: t.name, description: t.description ?? undefined, inputSchema: t.inputSchema }),
  );
}

// Code points drawn from these, so every string mixes scripts, marks, digits and space.
const RANGES: [number, number][] = [
  [0x20, 0x7e], // ASCII
  [0x00, 0x1f], // controls, \t \n \r
  [0x30, 0x39], // digits
  [0xa0, 0x24f], // Latin-1 and Latin Extended, with the uppercase/lowercase split o200k's regex makes
  [0x300, 0x36f], // combining marks
  [0x370, 0x4ff], // Greek, Cyrillic
  [0x590, 0x6ff], // Hebrew, Arabic
  [0x900, 0x97f], // Devanagari
  [0x3040, 0x30ff], // kana
  [0x4e00, 0x9fff], // CJK
  [0xac00, 0xd7a3], // Hangul
  [0xff00, 0xffef], // full-width forms
  [0x1f300, 0x1faff], // emoji
  [0x2000, 0x206f], // general punctuation: odd spaces, U+2028, zero-width joiner
  [0xfef0, 0xfeff], // Arabic forms and the BOM
  [0xd800, 0xdfff], // lone surrogates (TextEncoder turns them into U+FFFD)
  [0x10000, 0x10ffff], // anything astral
];
const PIECES = [
  '\ufeff',
  '\ufeffusing',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\t',
  "'s",
  "'LL",
  '<|endoftext|>',
  '<|im_start|>',
  '1234567',
  '"\\n"',
];

/** mulberry32: a small seeded generator, so a failure reproduces. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomTexts(count: number, seed: number): string[] {
  const random = seeded(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = '';
    const [lo, hi] = RANGES[pick(RANGES.length)]!; // a main script per text, then a mix
    for (let n = pick(60); n > 0; n--) {
      const r = random();
      if (r < 0.1) text += PIECES[pick(PIECES.length)]!;
      else if (r < 0.6) text += String.fromCodePoint(lo + pick(hi - lo + 1));
      else {
        const [a, b] = RANGES[pick(RANGES.length)]!;
        text += String.fromCodePoint(a + pick(b - a + 1));
      }
    }
    texts.push(text);
  }
  return texts;
}

const CASES: [string, string][] = [
  ['empty', ''],
  [
    'special tokens as text',
    '<|endoftext|><|fim_prefix|><|im_start|>user<|im_sep|>hi<|im_end|><|endofprompt|>',
  ],
  ['emoji with modifiers and joiners', '👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 🇯🇵🇫🇷 😀😀😀 ❤️‍🔥'],
  ['CJK', '使用必应搜索指定的关键词，并返回搜索结果列表。日本語のテキスト、カタカナ。한국어 문장입니다.'],
  ['long space run', ' '.repeat(3000) + 'x'],
  ['long mixed whitespace', ' \t\n'.repeat(400) + '\r\n\r\n  end  \n'],
  ['numbers', '0 1 12 123 1234 12345678901234567890 3.14159 -42 1e10 ١٢٣٤ ①②③ 1,000,000'],
  ['contractions', "don't I'M they'RE we'll you'VE it'S she'd O'Neil"],
  [
    'JSON with escapes',
    JSON.stringify({ a: 'line\nbreak\ttab "quoted" \\ back', u: '\u0000\u001f\u2028', e: '😀' }),
  ],
  ['escaped JSON in JSON', JSON.stringify(JSON.stringify({ k: ['x', { y: 'é\n' }] }))],
  ['lone surrogates', 'a\ud800b\udc00c\ud83d'],
  ['U+FFFD and BOM', '\ufffd\ufeffabc\ufffd'],
  // gpt-tokenizer decodes a byte key with a TextDecoder, which drops a leading BOM (bpe-count.ts).
  ['BOM before tokens', '\ufeffusing namespace \ufeff\ufeff# x\ufeff//\n\ufeff\n\n\ufeff/*\n \ufeff출장안마'],
  ['BOM alone', '\ufeff'],
  ['code', 'function f(a, b) {\n  return a?.b ?? [1, 2, 3].map((x) => x * 2);\n}\n// comment //\n'],
  ['URL and path', 'https://example.com/a/b?c=d&e=f#g /usr/local/bin//x C:\\Users\\x'],
  ['repeated letters', 'a'.repeat(2000) + 'A'.repeat(500) + 'ab'.repeat(300)],
];

describe.each(ENCODINGS)('the compact counter, %s, against gpt-tokenizer', (encoding) => {
  it.each(CASES)('%s', async (_name, text) => {
    const tokenizer = await loadTokenizer(encoding);
    expect(tokenizer.count(text)).toBe(oracleCount(encoding, text));
  });

  it('counts 3,000 seeded random Unicode strings alike', async () => {
    const tokenizer = await loadTokenizer(encoding);
    const wrong = randomTexts(3000, 28).filter((t) => tokenizer.count(t) !== oracleCount(encoding, t));
    expect(wrong.map((t) => JSON.stringify(t))).toEqual([]);
  });

  it.skipIf(!present)('counts every bench tool listing entry (about 7,000) alike', async () => {
    const tokenizer = await loadTokenizer(encoding);
    const entries = loadListingEntries();
    expect(entries.length).toBeGreaterThan(6000);
    const wrong = entries.filter((t) => tokenizer.count(t) !== oracleCount(encoding, t));
    expect(wrong.map((t) => t.slice(0, 200))).toEqual([]);
  });

  it('stops within a limit where gpt-tokenizer does', async () => {
    const tokenizer = await loadTokenizer(encoding);
    const text = CASES.map(([, t]) => t).join('\n');
    const n = oracleCount(encoding, text);
    for (const limit of [0, 1, n - 1, n, n + 1]) {
      expect(tokenizer.within(text, limit)).toBe(
        ORACLES[encoding].isWithinTokenLimit(text, limit, PLAIN_TEXT),
      );
    }
  });
});
