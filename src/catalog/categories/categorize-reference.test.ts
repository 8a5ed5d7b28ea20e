import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDictionaryTranslator } from '../../search/index.js';
import { categorizeServerReference } from './categorize-reference.js';
import { categorizeServer, type CategorizeOptions, type CategorizeTool } from '../index.js';
import { WORD_TABLE_SIZE, wordGeneration } from '../words/word-table.js';

/** Words of every kind: category words, generic ones, tag verbs and vocabulary, CJK, odd characters. */
const WORD = fc.constantFrom(
  ...[
    'github repository commit file folder browser scrape email slack calendar docker kubernetes deploy',
    'sql postgres database spreadsheet chart pdf slides model llm embedding vulnerability audit weather',
    'get_status listIssues createPR Search React react_to js type_script k8s ec2 google_sheets',
    'the and of 42 x 数据 查询资料库 天气，温度 カレンダー Café naïve ＡＰＩ 😀 — “q”',
  ]
    .join(' ')
    .split(' ')
    .map((w) => w.replace('_', ' ')),
);

const TEXT = fc.array(WORD, { maxLength: 12 }).map((ws) => ws.join(' '));

const TOOLS = fc
  .uniqueArray(
    fc.record({
      name: fc.array(WORD, { minLength: 1, maxLength: 3 }),
      description: TEXT,
      params: fc.array(WORD, { maxLength: 4 }),
    }),
    { selector: (t) => t.name.join('_'), maxLength: 8 },
  )
  .map((list) =>
    list.map((t): CategorizeTool => ({
      key: `s/${t.name.join('_')}`,
      name: t.name.join('_'),
      description: t.description,
      paramNames: t.params,
    })),
  );

const OPTIONS = fc.record({
  serverWeight: fc.constantFrom(0, 0.75, 1, 2),
  nameWeight: fc.constantFrom(1, 1.5, 2),
  paramWeight: fc.constantFrom(0, 1, 2),
});

describe('categorizeServer', () => {
  it('gives the reference’s categories, tags and scores', () => {
    fc.assert(
      fc.property(TOOLS, TEXT, OPTIONS, (tools, description, options: Partial<CategorizeOptions>) => {
        const server = { id: 'acme/s', description };
        const opts = { ...options, scores: true };
        expect(categorizeServer(server, tools, opts)).toEqual(categorizeServerReference(server, tools, opts));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the reference’s answers with a translator', () => {
    // 数据 ("data") and 资料库 ("database") glossed into English words the descriptions use.
    const glosses: Record<string, string> = { 数据: 'data', 资料库: 'database', 天气: 'weather' };
    const translator = createDictionaryTranslator('test', {
      maxLength: 3,
      get: (w) => glosses[w],
      variant: () => undefined,
    });
    fc.assert(
      fc.property(TOOLS, TEXT, (tools, description) => {
        const server = { id: 's', description };
        const opts = { translator, scores: true };
        expect(categorizeServer(server, tools, opts)).toEqual(categorizeServerReference(server, tools, opts));
      }),
      { numRuns: 100 },
    );
  });

  it('gives the same answers after the word table starts over', () => {
    const tools: CategorizeTool[] = [
      {
        key: 'gh/create_issue',
        name: 'create_issue',
        description: 'Open an issue on GitHub',
        paramNames: ['repo'],
      },
      { key: 'gh/run_sql', name: 'runSQL', description: '查询资料库 in PostgreSQL', paramNames: ['query'] },
    ];
    const first = categorizeServer({ id: 'gh' }, tools, { scores: true });
    // A tool with as many distinct parameter words as the table keeps (numbers: no search each).
    const many = Array.from({ length: WORD_TABLE_SIZE }, (_, i) => String(i));
    categorizeServer({ id: 'big' }, [{ key: 'big/t', name: 't', paramNames: many }]);
    const generation = wordGeneration();
    const again = categorizeServer({ id: 'gh' }, tools, { scores: true });
    expect(wordGeneration()).toBe(generation + 1);
    expect(again).toEqual(first);
    expect(again).toEqual(categorizeServerReference({ id: 'gh' }, tools, { scores: true }));
  });
});
