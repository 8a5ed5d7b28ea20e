import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  countTokens,
  fitToBudget,
  loadTokenizer,
  summarize,
  type Fit,
  type Rendering,
  type Tokenizer,
} from '../index.js';

interface ListTool {
  key: string;
  description: string;
  inputSchema: unknown;
}
interface Shape {
  shown: number;
  level: number;
  head: number;
}

/** full -> summary -> key only, as search and browse answers give up detail. */
const LEVELS: Rendering<ListTool>[] = [
  { name: 'full', render: (t) => ({ key: t.key, description: t.description, inputSchema: t.inputSchema }) },
  { name: 'summary', render: (t) => ({ key: t.key, summary: summarize(t.description) }) },
  { name: 'key', render: (t) => ({ key: t.key }) },
];
const LEANEST = LEVELS.length - 1;
const HINT = 'raise maxTokens or narrow the query';

const tool = (key: string, description: string, params: string[] = []): ListTool => ({
  key,
  description,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p, { type: 'string', description: `The ${p}` }])),
  },
});

/** The demo catalog's kind of list: reference-server tools, one description with a special-token look-alike. */
const DEMO_LIST: ListTool[] = [
  tool('everything/echo', 'Echoes back the input.', ['message']),
  tool('everything/add', 'Adds two numbers.', ['a', 'b']),
  tool('everything/longRunningOperation', 'Demonstrates a long running operation with progress updates.', [
    'duration',
    'steps',
  ]),
  tool(
    'everything/printEnv',
    'Prints all environment variables, helpful for debugging MCP server configuration.',
  ),
  tool('everything/sampleLLM', "Samples from an LLM using MCP's sampling feature.", ['prompt', 'maxTokens']),
  tool(
    'filesystem/read_text_file',
    'Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Only works within allowed directories.',
    ['path', 'head', 'tail'],
  ),
  tool('filesystem/write_file', 'Create a new file or completely overwrite an existing file.', [
    'path',
    'content',
  ]),
  tool('filesystem/list_directory', 'Get a detailed listing of all files and directories in a path.', [
    'path',
  ]),
  tool('memory/create_entities', 'Create multiple new entities in the knowledge graph.', ['entities']),
  tool('memory/search_nodes', 'Search for nodes in the knowledge graph based on a query.', ['query']),
  tool('memory/read_graph', 'Read the entire knowledge graph.'),
  tool('sequential-thinking/sequentialthinking', 'Reflective problem-solving. <|endoftext|> is plain text.', [
    'thought',
  ]),
];

// The big bench catalog (about 7,000 real tools) as one list; a clone without ../shared/bench
// skips those cases and says so on stderr (as test/quality/exact-name.test.ts does).
const BENCH =
  process.env.CARTE_BENCH_DATA ?? join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'bench');
const FILES = ['catalog-livemcpbench.json', 'catalog-smithery-toolgym-distractors.json'];
const present = FILES.every((f) => existsSync(join(BENCH, f)));
if (!present)
  process.stderr.write(`budget 7k-item tests skipped: no bench data at ${BENCH} (${FILES.join(', ')})\n`);

function loadBigList(): ListTool[] {
  type BenchTool = { server: string; name: string; description?: string | null; inputSchema?: unknown };
  const tools = FILES.flatMap((f) => JSON.parse(readFileSync(join(BENCH, f), 'utf8')) as BenchTool[]);
  return tools.map((t) => ({
    key: `${t.server}/${t.name}`,
    description: t.description ?? '',
    inputSchema: t.inputSchema ?? { type: 'object' },
  }));
}
const BIG_LIST = present ? loadBigList() : [];

/** maxTokens 50, 51, 60, then up by a quarter each step, to 20,000. */
const SWEEP = [50, 51];
for (let b = 60; b < 20_000; b = Math.ceil(b * 1.25)) SWEEP.push(b);
SWEEP.push(20_000);

const fit = (items: readonly ListTool[], maxTokens: number): Promise<Fit> =>
  fitToBudget({ items, levels: LEVELS, envelope: { query: 'q' }, key: 'results', maxTokens, hint: HINT });

/** The naive oracle's candidate answer for a shape, built by hand the documented way. */
function buildAnswer(items: readonly ListTool[], shape: Shape): Record<string, unknown> {
  const list = items
    .slice(0, shape.shown)
    .map((t, i) => LEVELS[i < shape.head ? shape.level - 1 : shape.level]!.render(t));
  const count = items.length - shape.shown;
  const degraded = shape.shown > shape.head && shape.level > 0;
  const level = degraded ? { level: LEVELS[shape.level]!.name } : {};
  return {
    query: 'q',
    results: list,
    ...(count || degraded ? { omitted: { count, ...level, hint: HINT } } : {}),
  };
}

let tokenizer: Tokenizer;
beforeAll(async () => {
  tokenizer = await loadTokenizer();
});
const tokensOf = (items: readonly ListTool[], shape: Shape) =>
  tokenizer.count(JSON.stringify(buildAnswer(items, shape)));

/** Checks a fit: under budget, exact text, honest `omitted`, richer items first, and maximal. */
function expectSound(items: readonly ListTool[], maxTokens: number, result: Fit): void {
  expect(result.tokens).toBeLessThanOrEqual(maxTokens);
  expect(tokenizer.count(result.text)).toBe(result.tokens);
  expect(result.text).toBe(JSON.stringify(result.answer));
  expect(JSON.parse(result.text)).toEqual(result.answer);
  const shown = result.answer.results as unknown[];
  expect(shown).toHaveLength(result.shown);
  expect(result.omitted?.count ?? 0).toBe(items.length - result.shown);
  const levels = shown.map((s, i) => LEVELS.findIndex((l) => isDeepStrictEqual(l.render(items[i]!), s)));
  expect(levels.every((l) => l >= 0)).toBe(true);
  expect(levels).toEqual([...levels].sort((a, b) => a - b));
  const leanest = levels.at(-1) ?? 0;
  expect(result.omitted?.level).toBe(leanest > 0 ? LEVELS[leanest]!.name : undefined);
  if (result.shown < items.length) {
    expect(tokensOf(items, { shown: result.shown + 1, level: LEANEST, head: 0 })).toBeGreaterThan(maxTokens);
  } else if (leanest > 0) {
    // One more item kept richer would not fit (all of them richer is the next rendering up).
    const head = levels.filter((l) => l < leanest).length + 1;
    const richer = head < items.length ? { level: leanest, head } : { level: leanest - 1, head: 0 };
    expect(tokensOf(items, { shown: items.length, ...richer })).toBeGreaterThan(maxTokens);
  }
}

describe('countTokens', () => {
  it('counts with o200k_base by default, special-token look-alikes as plain text', async () => {
    expect(await countTokens('hello world')).toBe(2);
    expect(await countTokens('<|endoftext|>')).toBeGreaterThan(1);
    expect(await countTokens('')).toBe(0);
    expect(await countTokens('héllo 世界 {"a":1}', 'cl100k_base')).toBeGreaterThan(0);
  });
});

describe.each([
  ['the demo list', DEMO_LIST],
  [`the big catalog (${BIG_LIST.length} items)`, BIG_LIST],
])('fitToBudget over %s', (_, items) => {
  it.skipIf(items.length === 0).each(SWEEP)('fits maxTokens %i', async (maxTokens) => {
    expectSound(items, maxTokens, await fit(items, maxTokens));
  });

  it.skipIf(items.length === 0)(
    'omits nothing under a large budget: the answer is the full rendering',
    async () => {
      const result = await fit(items, 10_000_000);
      expect(result.omitted).toBeUndefined();
      expect(result.answer).toEqual({ query: 'q', results: items.map((t) => LEVELS[0]!.render(t)) });
    },
  );
});

describe('fitToBudget', () => {
  it('keeps the head of the list richer when every item fits only at a leaner rendering', async () => {
    const full = tokensOf(DEMO_LIST, { shown: DEMO_LIST.length, level: 0, head: 0 });
    const summary = tokensOf(DEMO_LIST, { shown: DEMO_LIST.length, level: 1, head: 0 });
    const result = await fit(DEMO_LIST, Math.floor((full + summary) / 2));
    expectSound(DEMO_LIST, Math.floor((full + summary) / 2), result);
    expect(result.omitted).toEqual({ count: 0, level: 'summary', hint: HINT });
    const results = result.answer.results as Record<string, unknown>[];
    expect(results[0]).toHaveProperty('description');
    expect(results.at(-1)).toHaveProperty('summary');
  });

  it('passes what is shown to a hint function (e.g. for a cursor)', async () => {
    const result = await fitToBudget({
      items: DEMO_LIST,
      levels: LEVELS,
      envelope: { server: 'demo' },
      key: 'tools',
      maxTokens: 60,
      hint: ({ shown, omitted, level }) => `pass cursor ${shown} for ${omitted} more (${level})`,
    });
    expect(result.omitted).toEqual({
      count: DEMO_LIST.length - result.shown,
      level: 'key',
      hint: `pass cursor ${result.shown} for ${DEMO_LIST.length - result.shown} more (key)`,
    });
  });

  it('answers an empty list with the envelope alone', async () => {
    expect((await fit([], 50)).answer).toEqual({ query: 'q', results: [] });
  });

  it.each([
    [20, 'maxTokens 20 is below the minimum 50'],
    [20.5, 'maxTokens 20.5 is not a whole number'],
    [Number.NaN, 'maxTokens NaN is not a whole number'],
  ])('refuses maxTokens %s', async (maxTokens, message) => {
    await expect(fit(DEMO_LIST, maxTokens)).rejects.toMatchObject({ code: 'bad_input', message });
  });

  it('refuses a budget the envelope alone does not fit, with the tokens it needs', async () => {
    const envelope = { note: 'word '.repeat(100) };
    const smallest = { ...envelope, results: [], omitted: { count: 2, hint: HINT } };
    const needed = await countTokens(JSON.stringify(smallest));
    const items = DEMO_LIST.slice(0, 2);
    const attempt = fitToBudget({
      items,
      levels: LEVELS,
      envelope,
      key: 'results',
      maxTokens: 60,
      hint: HINT,
    });
    await expect(attempt).rejects.toMatchObject({
      code: 'bad_input',
      message: `maxTokens 60 is too small for this answer: it needs at least ${needed}`,
    });
  });

  it('matches a naive oracle that tries every shape in the documented order', async () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.constantFrom('<|endoftext|>', '{"a":[1]}', '    ', '"\\'),
    );
    const description = fc.oneof(text, fc.lorem({ maxCount: 30, mode: 'sentences' }));
    const item = fc.record({ key: text, description, inputSchema: fc.jsonValue({ maxDepth: 2 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { maxLength: 12 }),
        fc.integer({ min: 50, max: 800 }),
        async (items, max) => {
          const expected = oracle(items, max);
          const attempt = fit(items, max);
          if (expected === undefined) await expect(attempt).rejects.toMatchObject({ code: 'bad_input' });
          else expect((await attempt).answer).toEqual(buildAnswer(items, expected));
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** Linear scans over every shape, richest first: all at one level, then a richer head, then fewer items. */
function oracle(items: readonly ListTool[], max: number): Shape | undefined {
  const n = items.length;
  const fits = (shape: Shape) => tokensOf(items, shape) <= max;
  if (fits({ shown: n, level: 0, head: 0 })) return { shown: n, level: 0, head: 0 };
  for (let level = 1; level <= LEANEST; level++) {
    if (!fits({ shown: n, level, head: 0 })) continue;
    for (let head = n - 1; head >= 0; head--)
      if (fits({ shown: n, level, head })) return { shown: n, level, head };
  }
  for (let shown = n - 1; shown >= 0; shown--) {
    if (fits({ shown, level: LEANEST, head: 0 })) return { shown, level: LEANEST, head: 0 };
  }
  return undefined;
}

describe.skipIf(!present)('fitToBudget speed over the big catalog (logged, never asserted)', () => {
  it('logs the time to fit the whole list', async () => {
    const lines: string[] = [];
    for (const maxTokens of [500, 4_000, 20_000, 10_000_000]) {
      const start = performance.now();
      const result = await fit(BIG_LIST, maxTokens);
      const ms = (performance.now() - start).toFixed(1);
      lines.push(
        `maxTokens ${maxTokens}: ${result.shown} shown (${result.omitted?.level ?? 'full'}) in ${ms} ms`,
      );
    }
    process.stderr.write(`fitToBudget over ${BIG_LIST.length} items:\n  ${lines.join('\n  ')}\n`);
  });
});
