import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CarteError } from '../../errors.js';
import {
  countTokens,
  fitToolDetail,
  reduceToolDetail,
  TOOL_DETAIL_LEVELS,
  type ToolDetail,
  type ToolDetailLevel,
} from '../index.js';

const detailOf = (key: string, fields: Partial<ToolDetail> = {}): ToolDetail => ({
  key,
  server: key.split('/')[0]!,
  name: key.split('/')[1]!,
  inputSchema: { type: 'object' },
  serverStatus: 'success',
  firstSeenAt: '2026-01-01T00:00:00Z',
  lastSeenAt: '2026-01-01T00:00:00Z',
  ...fields,
});

/** A tool with every kind of detail to give up, including a property named "description". */
const RICH = detailOf('tracker/create_issue', {
  description: `Create an issue in a project. ${'Explains labels, assignees and milestones at length. '.repeat(20)}`,
  inputSchema: {
    type: 'object',
    description: 'The new issue',
    properties: {
      title: { type: 'string', description: 'One line', examples: ['Crash on start'] },
      description: { type: 'string', title: 'Body', description: 'Markdown body' },
      labels: { type: 'array', items: { type: 'string', description: 'A label name' } },
      assignee: { anyOf: [{ type: 'string', description: 'A login' }, { type: 'null' }] },
      priority: { enum: ['low', 'high'], default: 'low', $comment: 'maps to P3/P1' },
      meta: { type: 'object', properties: { description: { const: { description: 'kept: a value' } } } },
    },
    required: ['title'],
    $defs: { user: { type: 'object', description: 'A user' } },
  },
  outputSchema: { type: 'object', properties: { id: { type: 'integer', description: 'The new id' } } },
  annotations: { readOnlyHint: false },
  icons: [{ src: 'https://example.com/icon.png' }],
  _meta: { 'vendor/x': 1 },
});

describe('reduceToolDetail', () => {
  const schema = (level: ToolDetailLevel) => reduceToolDetail(RICH, level).inputSchema;

  it('gives up detail in the documented order', () => {
    expect(reduceToolDetail(RICH, 'full')).toBe(RICH);
    const keys = (level: ToolDetailLevel) => Object.keys(reduceToolDetail(RICH, level)).sort();
    const call = ['annotations', 'description', 'inputSchema', 'key', 'serverStatus'];
    expect(keys('no-output-schema')).toEqual(call);
    expect(reduceToolDetail(RICH, 'no-output-schema').inputSchema).toBe(RICH.inputSchema);
    expect(keys('param-types')).toEqual(call);
    expect(reduceToolDetail(RICH, 'param-types').description).toBe(RICH.description);
    expect(reduceToolDetail(RICH, 'summary').description).toBe('Create an issue in a project.');
    expect(reduceToolDetail(RICH, 'summary').annotations).toEqual({ readOnlyHint: false });
    expect(keys('bare')).toEqual(['inputSchema', 'key', 'serverStatus']);
  });

  it('drops explanatory keywords at every depth, and only in schema positions', () => {
    expect(schema('no-schema-text')).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string' },
        description: { type: 'string' },
        labels: { type: 'array', items: { type: 'string' } },
        assignee: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        priority: { enum: ['low', 'high'], default: 'low' },
        meta: { type: 'object', properties: { description: { const: { description: 'kept: a value' } } } },
      },
      required: ['title'],
      $defs: { user: { type: 'object' } },
    });
  });

  it('cuts the input schema to names, types and required', () => {
    expect(schema('param-types')).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string' },
        description: { type: 'string' },
        labels: { type: 'array' },
        assignee: {},
        priority: {},
        meta: { type: 'object' },
      },
      required: ['title'],
    });
  });
});

describe('fitToolDetail', () => {
  it('returns the definition untouched when it fits', async () => {
    const result = await fitToolDetail(RICH, 100_000);
    expect(result.answer).toBe(RICH);
    expect(result.text).toBe(JSON.stringify(RICH));
    expect(result.tokens).toBe(await countTokens(result.text));
  });

  it('takes the richest level that fits, leaner as the budget shrinks, and says how to get it all', async () => {
    const full = await countTokens(JSON.stringify(RICH));
    const hint = `ask with maxTokens ${full} for the full definition`;
    let previous = 0;
    for (let max = full - 1; max >= 50; max = Math.floor(max * 0.8)) {
      const attempt = await fitToolDetail(RICH, max).catch((err: unknown) => err as CarteError);
      if (attempt instanceof CarteError) {
        const least = { ...reduceToolDetail(RICH, 'bare'), omitted: { level: 'bare', hint } };
        const needed = await countTokens(JSON.stringify(least));
        expect(attempt.message).toBe(
          `maxTokens ${max} is too small for tool "tracker/create_issue": its shortest definition takes ${needed} tokens`,
        );
        expect(needed).toBeGreaterThan(max);
        continue;
      }
      const { answer, text, tokens } = attempt;
      expect(tokens).toBeLessThanOrEqual(max);
      expect(text).toBe(JSON.stringify(answer));
      const level = answer.omitted!.level;
      expect(answer.omitted).toEqual({ level, hint });
      const { omitted: _, ...rest } = answer;
      expect(rest).toEqual(reduceToolDetail(RICH, level));
      const rank = TOOL_DETAIL_LEVELS.indexOf(level);
      expect(rank).toBeGreaterThanOrEqual(previous);
      previous = rank;
    }
    expect(previous).toBe(TOOL_DETAIL_LEVELS.length - 1);
  });

  it('fits any schema within budget or refuses with what it needs', async () => {
    const schema = fc.jsonValue({ maxDepth: 4 });
    await fc.assert(
      fc.asyncProperty(
        schema,
        schema,
        fc.string(),
        fc.integer({ min: 50, max: 400 }),
        async (i, o, d, max) => {
          const detail = detailOf('s/t', { inputSchema: i, outputSchema: o, description: d });
          const attempt = await fitToolDetail(detail, max).catch((err: unknown) => err as CarteError);
          if (attempt instanceof CarteError) expect(attempt.details?.needed).toBeGreaterThan(max);
          else expect(await countTokens(attempt.text)).toBeLessThanOrEqual(max);
        },
      ),
      { numRuns: 100 },
    );
  });
});

// Real tools from the big bench catalog; skipped with a note when ../shared/bench is absent.
const BENCH =
  process.env.CARTE_BENCH_DATA ?? join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'bench');
const FILE = join(BENCH, 'catalog-smithery-toolgym-distractors.json');
if (!existsSync(FILE)) process.stderr.write(`budget-tool bench tests skipped: no ${FILE}\n`);

describe.skipIf(!existsSync(FILE))('fitToolDetail over real tools', () => {
  type BenchTool = { server: string; name: string; description?: string | null; inputSchema?: unknown };
  const tools = existsSync(FILE) ? (JSON.parse(readFileSync(FILE, 'utf8')) as BenchTool[]) : [];

  it.each([60, 150, 400, 1_000])(
    'fits every 10th tool in maxTokens %i, or says what it needs',
    async (max) => {
      const levels = new Map<string, number>();
      for (const t of tools.filter((_, i) => i % 10 === 0)) {
        const detail = detailOf(`${t.server}/${t.name}`, {
          ...(t.description ? { description: t.description } : {}),
          inputSchema: t.inputSchema ?? { type: 'object' },
        });
        const attempt = await fitToolDetail(detail, max).catch((err: unknown) => err as CarteError);
        const level = attempt instanceof CarteError ? 'refused' : (attempt.answer.omitted?.level ?? 'full');
        levels.set(level, (levels.get(level) ?? 0) + 1);
        if (attempt instanceof CarteError) expect(attempt.details?.needed).toBeGreaterThan(max);
        else expect(attempt.tokens).toBeLessThanOrEqual(max);
      }
      process.stderr.write(`fitToolDetail at ${max}: ${JSON.stringify(Object.fromEntries(levels))}\n`);
    },
  );
});
