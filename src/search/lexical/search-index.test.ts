import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, type SearchDoc } from '../index.js';

const doc = (server: string, name: string, description = '', extra: Partial<SearchDoc> = {}): SearchDoc => ({
  key: `${server}/${name}`,
  server,
  name,
  description,
  ...extra,
});

const CATALOG: SearchDoc[] = [
  doc('filesystem', 'read_file', 'Read the complete contents of a file from the file system.', {
    paramNames: ['path'],
  }),
  doc('filesystem', 'write_file', 'Create a new file or overwrite an existing file with new content.', {
    paramNames: ['path', 'content'],
  }),
  doc('filesystem', 'list_directory', 'List all files and directories in a path.'),
  doc('desktop', 'read_file', 'Read a file from disk, with offset and length.'),
  doc('github', 'create_issue', 'Create a new issue in a GitHub repository.', {
    paramNames: ['owner', 'repo', 'title'],
  }),
  doc('github', 'search_repositories', 'Search for GitHub repositories.'),
  doc('gitlab', 'create_issue', 'Open an issue on a GitLab project.'),
  doc('weather', 'get_forecast', 'Get the weather forecast for a city.', { title: 'Weather forecast' }),
  doc('amap', 'maps_weather', '根据城市名称查询天气'),
  doc('search', 'web_search', 'Search the web with a query and return results.'),
  doc('misc', 'AND', 'A logic gate.'),
];
const index = buildSearchIndex(CATALOG);
const keys = (q: string | string[], o = {}): string[] => index.search(q, o).map((h) => h.key);

describe('buildSearchIndex', () => {
  it('reports its size', () => expect(index.size).toBe(CATALOG.length));

  it.each([
    ['weather forecast for Paris', 'weather/get_forecast'],
    ['search the web', 'search/web_search'],
    ['overwrite a file', 'filesystem/write_file'],
    ['list directories', 'filesystem/list_directory'],
    ['查询北京的天气', 'amap/maps_weather'],
    ['create a github issue', 'github/create_issue'],
  ])('%j ranks %s first', (query, expected) => {
    expect(keys(query)[0]).toBe(expected);
  });

  it.each([
    ['filesystem/read_file', ['filesystem/read_file'], 'filesystem/read_file'],
    ['  DESKTOP/READ_FILE ', ['desktop/read_file'], 'desktop/read_file'],
    ['read_file', ['filesystem/read_file', 'desktop/read_file'], undefined],
    ['AND', ['misc/AND'], 'misc/AND'],
    ['create_issue on gitlab', ['gitlab/create_issue', 'github/create_issue'], 'gitlab/create_issue'],
    ['gitlab create_issue', ['gitlab/create_issue', 'github/create_issue'], 'gitlab/create_issue'],
    ['create_issue github', ['gitlab/create_issue', 'github/create_issue'], 'github/create_issue'],
  ])('exact %j pins %j first at relevance 1 (first: %s)', (query, expected, first) => {
    const hits = index.search(query);
    expect(
      hits
        .slice(0, expected.length)
        .map((h) => h.key)
        .sort(),
    ).toEqual([...expected].sort());
    if (first !== undefined) expect(hits[0]!.key).toBe(first);
    for (const h of hits.slice(0, expected.length)) expect(h.relevance).toBe(1);
    for (const h of hits.slice(expected.length)) expect(h.relevance).toBeLessThan(1);
  });

  describe('use cases (from rules)', () => {
    // "journal" and "diary" are in no tool's text: only the phrases can match them.
    const withUseCases = CATALOG.map((d) =>
      d.key === 'filesystem/write_file' ? { ...d, useCases: ['save a journal entry', 'keep my diary'] } : d,
    );
    const search = (q: string, docs: SearchDoc[], o = {}) => buildSearchIndex(docs).search(q, o);

    it.each([['journal entry'], ['my diary'], ['where do I keep a journal']])(
      '%j finds the tool only through its use case',
      (query) => {
        expect(search(query, CATALOG).map((h) => h.key)).not.toContain('filesystem/write_file');
        expect(search(query, withUseCases)[0]?.key).toBe('filesystem/write_file');
      },
    );

    it('are matched by required words and phrases like the other fields', () => {
      const required = search('file', withUseCases, { require: ['diary'] });
      expect(required.map((h) => h.key)).toEqual(['filesystem/write_file']);
      const phrase = search('file', withUseCases, { phrases: ['keep my diary'] });
      expect(phrase.map((h) => h.key)).toEqual(['filesystem/write_file']);
    });

    it('leave every other ranking as it was when no tool has any', () => {
      const none = CATALOG.map((d) => ({ ...d, useCases: [] }));
      for (const q of ['weather forecast for Paris', 'read a file', 'create a github issue'])
        expect(search(q, none)).toEqual(search(q, CATALOG));
    });
  });

  it('finds a misspelt tool name through typo tolerance, without pinning anything', () => {
    const hits = index.search('create_isue');
    expect(
      hits
        .slice(0, 2)
        .map((h) => h.key)
        .sort(),
    ).toEqual(['github/create_issue', 'gitlab/create_issue']);
    expect(hits[1]!.relevance).toBeLessThan(1);
  });

  it('does not pin a plain prose word that happens to be a tool name', () => {
    const idx = buildSearchIndex([...CATALOG, doc('x', 'search', 'Unrelated lookup of parts.')]);
    expect(idx.search('search the web for news')[0]!.key).toBe('search/web_search');
  });

  it('filters by server, pins included', () => {
    expect(keys('read_file', { server: 'desktop' })).toEqual(['desktop/read_file']);
    expect(keys('file', { server: 'filesystem' }).every((k) => k.startsWith('filesystem/'))).toBe(true);
    expect(keys('file', { server: 'nope' })).toEqual([]);
  });

  it.each([[''], ['   '], [[] as string[]], [['', ' ']]])('empty query %j gives no hits', (q) => {
    expect(index.search(q)).toEqual([]);
  });

  it.each([
    [0, 1],
    [-3, 1],
    [2, 2],
    [1000, CATALOG.length],
    [Number.NaN, 8],
    [undefined, 8],
  ])('limit %s is clamped to give at most %i hits', (limit, expected) => {
    const many = buildSearchIndex(CATALOG.map((d) => ({ ...d, description: `${d.description ?? ''} tool` })));
    expect(many.search('tool', { limit }).length).toBe(Math.min(expected, CATALOG.length));
  });

  it('normalises relevance to 0..1 with the best at 1, sorted', () => {
    const hits = index.search('file');
    expect(hits[0]!.relevance).toBe(1);
    for (const h of hits) expect(h.relevance).toBeGreaterThan(0);
    for (let i = 1; i < hits.length; i++)
      expect(hits[i - 1]!.relevance).toBeGreaterThanOrEqual(hits[i]!.relevance);
  });

  it('answers a query array with one merged ranking holding each step top hit', () => {
    const steps = ['get the weather forecast', 'write the result to a file', 'open a github issue'];
    const merged = keys(steps, { limit: 3 });
    expect(new Set(merged)).toEqual(new Set(steps.map((s) => keys(s)[0])));
    expect(index.search(['search the web'])).toEqual(index.search('search the web'));
  });

  it('cuts very long queries instead of failing', () => {
    expect(keys(`weather forecast ${'x'.repeat(5000)}`)[0]).toBe('weather/get_forecast');
  });
});

describe('buildSearchIndex property', () => {
  const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'omega', 'file', 'web');
  const sentence = fc.array(word, { minLength: 0, maxLength: 5 }).map((w) => w.join(' '));
  const catalog = fc.uniqueArray(
    fc.record({
      server: fc.constantFrom('s1', 's2'),
      name: fc.constantFrom('n1', 'n2', 'n3', 'n4'),
      description: sentence,
    }),
    { selector: (d) => `${d.server}/${d.name}`, minLength: 1, maxLength: 8 },
  );

  it('ranks like a brute-force scan: every hit matches a query word, non-matching tools never appear', () => {
    fc.assert(
      fc.property(catalog, fc.array(word, { minLength: 1, maxLength: 3 }), (raw, words) => {
        const docs = raw.map((d) => doc(d.server, d.name, d.description));
        const hits = buildSearchIndex(docs).search(words.join(' '), { limit: 50 });
        const matching = docs.filter((d) => words.some((w) => d.description!.split(' ').includes(w)));
        expect(new Set(hits.map((h) => h.key))).toEqual(new Set(matching.map((d) => d.key)));
      }),
    );
  });
});
