import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  CATEGORY_IDS,
  categorizeServer,
  categoryLabel,
  FALLBACK_CATEGORY,
  isCategoryId,
  type CategorizeTool,
} from '../index.js';

const tool = (
  server: string,
  name: string,
  description: string,
  paramNames: string[] = [],
): CategorizeTool => ({
  key: `${server}/${name}`,
  name,
  description,
  paramNames,
});

/** The category of one tool alone on its server. */
function categoryOf(server: string, t: CategorizeTool): string | undefined {
  return categorizeServer({ id: server }, [t]).get(t.key)?.category;
}

describe('the category table', () => {
  it('has the ten ids, each with a one-line label and a description', () => {
    expect(CATEGORY_IDS).toEqual([
      'code',
      'files',
      'web',
      'documents',
      'data',
      'infra',
      'ai',
      'security',
      'communication',
      'utilities',
    ]);
    for (const id of CATEGORY_IDS) {
      expect(categoryLabel(id)).toMatch(/^[A-Z][^\n]+$/);
      expect(CATEGORIES[id].description.length).toBeGreaterThan(200);
    }
    expect(isCategoryId('code')).toBe(true);
    expect(isCategoryId('toString')).toBe(false);
  });
});

describe('categorizeServer', () => {
  it.each([
    ['github', 'create_issue', 'Create a new issue in a GitHub repository', ['owner', 'repo'], 'code'],
    [
      'filesystem',
      'read_file',
      'Read the complete contents of a file from the file system',
      ['path'],
      'files',
    ],
    [
      'slack',
      'send_slack_message',
      'Send a message to a Slack channel',
      ['channel', 'text'],
      'communication',
    ],
    ['brave', 'web_search', 'Search the web and return titles, URLs and snippets', ['query'], 'web'],
    [
      'pdf',
      'create_pdf_report',
      'Generate a PDF report from markdown with charts',
      ['markdown'],
      'documents',
    ],
    ['postgres', 'run_sql_query', 'Run a read-only SQL query against the database', ['sql'], 'data'],
    ['stocks', 'get_quote', 'Get the latest stock quote for a ticker', ['symbol'], 'data'],
    ['k8s', 'list_pods', 'List the pods of a Kubernetes namespace', ['namespace'], 'infra'],
    ['images', 'generate_image', 'Generate an image from a prompt with Stable Diffusion', ['prompt'], 'ai'],
    [
      'scanner',
      'scan_vulnerabilities',
      'Scan dependencies for known CVE vulnerabilities',
      ['path'],
      'security',
    ],
    ['weather', 'get_forecast', 'Get the weather forecast for a city', ['city'], 'utilities'],
  ])('%s/%s is %s', (server, name, description, params, expected) => {
    expect(categoryOf(server, tool(server, name, description, params))).toBe(expected);
  });

  it('gives a tool with no known word the fallback, alone', () => {
    expect(categoryOf('x', tool('x', 'zzz', 'Qwerty uiop.'))).toBe(FALLBACK_CATEGORY);
    expect(categoryOf('x', tool('x', 'a', ''))).toBe(FALLBACK_CATEGORY);
  });

  describe('server evidence', () => {
    const database = [
      tool('pg', 'run_query', 'Run a SQL query against the PostgreSQL database', ['sql']),
      tool('pg', 'list_tables', 'List the tables and columns of a schema', ['schema']),
      tool('pg', 'create_index', 'Create an index on a table', ['table', 'columns']),
    ];
    it.each([
      // Alone, a backup reads as infrastructure and a status check says nothing.
      [tool('pg', 'backup', 'Back up the database to a file', ['path']), 'infra'],
      [tool('pg', 'get_status', 'Get the current status'), FALLBACK_CATEGORY],
    ])('pulls the ambiguous %o to its server category', (ambiguous, alone) => {
      const tools = [...database, ambiguous];
      expect(categorizeServer({ id: 'pg' }, tools, { serverWeight: 0 }).get(ambiguous.key)?.category).toBe(
        alone,
      );
      expect(categorizeServer({ id: 'pg' }, tools).get(ambiguous.key)?.category).toBe('data');
    });

    it('reads the server id and description', () => {
      const vague = tool('x', 'get_status', 'Get the current status');
      expect(categorizeServer({ id: 'acme/slack-bridge' }, [vague]).get(vague.key)?.category).toBe(
        'communication',
      );
      const described = { id: 'acme', description: 'Query PostgreSQL databases' };
      expect(categorizeServer(described, [vague]).get(vague.key)?.category).toBe('data');
    });
  });

  it('returns blended scores (best = 1) only when asked', () => {
    const t = tool('github', 'create_issue', 'Create a new issue in a GitHub repository');
    expect(categorizeServer({ id: 'github' }, [t]).get(t.key)?.scores).toBeUndefined();
    const scores = categorizeServer({ id: 'github' }, [t], { scores: true }).get(t.key)?.scores;
    expect(scores?.code).toBe(1);
    expect(Object.keys(scores ?? {})).toEqual(CATEGORY_IDS);
  });

  const word = fc.constantFrom(
    'file',
    'github',
    'slack',
    'sql',
    'weather',
    'docker',
    'the',
    '数据',
    'x_y',
    '',
  );
  const text = fc.array(word, { maxLength: 8 }).map((w) => w.join(' '));
  const tools = fc
    .uniqueArray(fc.tuple(fc.stringMatching(/^[a-z_]{1,12}$/), text, fc.array(word, { maxLength: 3 })), {
      selector: ([name]) => name,
      maxLength: 12,
    })
    .map((list) => list.map(([name, description, params]) => tool('s', name, description, params)));

  it('gives every tool exactly one valid category, deterministically', () => {
    fc.assert(
      fc.property(tools, fc.string({ maxLength: 20 }), (list, serverDescription) => {
        const server = { id: 's', description: serverDescription };
        const first = categorizeServer(server, list);
        expect([...first.keys()]).toEqual(list.map((t) => t.key));
        for (const c of first.values()) expect(isCategoryId(c.category)).toBe(true);
        expect(categorizeServer(server, list)).toEqual(first);
      }),
    );
  });
});
