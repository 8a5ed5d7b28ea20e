import { describe, expect, it } from 'vitest';
import { buildSearchIndex, parseQuery, searchRequest, type SearchDoc } from '../index.js';

const doc = (
  server: string,
  name: string,
  description: string,
  extra: Partial<SearchDoc> = {},
): SearchDoc => ({
  key: `${server}/${name}`,
  server,
  name,
  description,
  ...extra,
});

const CATALOG: SearchDoc[] = [
  doc('browser', 'navigate', 'Open a page in the browser.', {
    tags: ['web', 'prod'],
    categories: ['Browsing'],
  }),
  doc('browser', 'click', 'Click an element on the page.', { tags: ['web'], categories: ['Browsing'] }),
  doc('calc', 'calculate', 'Evaluate a math expression.', { categories: ['Math'] }),
  doc('news', 'get_headlines', 'Latest news headlines from the web.', { tags: ['web'] }),
  doc('docs', 'word_to_pdf', 'Convert a Word document to PDF.'),
  doc('docs', 'excel_read', 'Read a sheet of a spreadsheet.'),
  doc('copy-a', 'web_search', 'Search the web.'),
  doc('copy-b', 'web_search', 'Search the web.'),
  doc('other', 'web_lookup', 'Search the web for pages.'),
];
const index = buildSearchIndex(CATALOG);
const keys = (q: string | string[], o = {}): string[] =>
  index.search(q, { limit: 50, ...o }).map((h) => h.key);

describe('search features', () => {
  it.each([
    ['caculate', 'calc/calculate'],
    ['navgate', 'browser/navigate'],
  ])('tolerates the typo in %j (and finds nothing without typo tolerance)', (q, first) => {
    expect(keys(q)[0]).toBe(first);
    expect(buildSearchIndex(CATALOG, { typos: false }).search(q)).toEqual([]);
  });

  it.each([
    ['docx', 'docs/word_to_pdf'],
    ['xlsx', 'docs/excel_read'],
  ])('expands the abbreviation %j (and finds nothing without the thesaurus)', (q, first) => {
    expect(keys(q)[0]).toBe(first);
    expect(buildSearchIndex(CATALOG, { synonyms: false, typos: false }).search(q)).toEqual([]);
  });

  it('lifts a tool whose server as a whole matches the request', () => {
    // Two identical "route" tools; only the maps server also has a tool about coordinates.
    const docs = [
      doc('misc', 'route', 'Route directions between places.'),
      doc('maps', 'route', 'Route directions between places.'),
      doc('maps', 'geocode', 'Convert an address to coordinates.'),
      doc('other', 'echo', 'Echo the input.'),
    ];
    const query = 'route directions between coordinates';
    const top2 = (o = {}) =>
      buildSearchIndex(docs, { copyFactor: 1, ...o })
        .search(query, { limit: 2 })
        .map((h) => h.key);
    expect(top2()).toEqual(['maps/route', 'misc/route']);
    expect(top2({ serverWeight: 0 })).toEqual(['misc/route', 'maps/route']);
  });

  it('demotes an exact copy of a tool ranked above it', () => {
    const hits = index.search('search the web', { limit: 5 });
    const copies = hits.filter((h) => h.key.endsWith('/web_search'));
    expect(copies).toHaveLength(2);
    expect(hits.findIndex((h) => h.key === 'other/web_lookup')).toBeLessThan(
      hits.findIndex((h) => h.key === copies[1]!.key),
    );
    const plain = buildSearchIndex(CATALOG, { copyFactor: 1 }).search('search the web', { limit: 2 });
    expect(plain.map((h) => h.key).sort()).toEqual(['copy-a/web_search', 'copy-b/web_search']);
  });

  it.each([
    [{ tags: ['web'] }, ['browser/click', 'browser/navigate', 'news/get_headlines']],
    [{ tags: ['WEB', 'prod'] }, ['browser/navigate']],
    [{ categories: ['browsing', 'math'] }, ['browser/click', 'browser/navigate']],
    [
      { phrases: ['the web'] },
      ['copy-a/web_search', 'copy-b/web_search', 'news/get_headlines', 'other/web_lookup'],
    ],
    [{ exclude: ['search'] }, ['browser/click', 'browser/navigate', 'news/get_headlines']],
    [
      // Excluded words match like query words (stemmed): "pages" also drops tools that say "page".
      { exclude: ['pages'] },
      ['copy-a/web_search', 'copy-b/web_search', 'news/get_headlines'],
    ],
  ])('filters %j', (options, expected) => {
    expect(keys('web page search click', options).sort()).toEqual(expected);
  });

  it('drops hits below minRelevance', () => {
    const all = index.search('web page search click', { limit: 50 });
    const strong = index.search('web page search click', { limit: 50, minRelevance: 0.5 });
    expect(strong).toEqual(all.filter((h) => h.relevance >= 0.5));
    expect(strong.length).toBeLessThan(all.length);
  });

  it.each([
    ['server:browser', 50, ['browser/click', 'browser/navigate']],
    ['tag:web', 50, ['browser/click', 'browser/navigate', 'news/get_headlines']],
    ['category:math', 50, ['calc/calculate']],
    // By server then name, within the limit; exclusions are filters too.
    ['tag:web', 2, ['browser/click', 'browser/navigate']],
    ['-web -page -math', 50, ['docs/excel_read', 'docs/word_to_pdf']],
    ['server:nope', 50, []],
  ])(
    'lists what a query of filters only %j selects (limit %d), each at relevance 1',
    (q, limit, expected) => {
      const { query, options } = searchRequest(parseQuery(q), { limit });
      expect(query).toBe('');
      const hits = index.search(query, options);
      expect(hits.map((h) => h.key)).toEqual(expected);
      expect(hits.every((h) => h.relevance === 1)).toBe(true);
    },
  );

  it('lists nothing for an empty query, and nothing for visibility alone (not a filter)', () => {
    expect(index.search('', { limit: 50 })).toEqual([]);
    expect(index.search('', { limit: 50, allowKey: () => true })).toEqual([]);
    // Visibility still applies to a filtered listing.
    const visible = index.search('', { server: 'browser', allowKey: (k) => k !== 'browser/click' });
    expect(visible.map((h) => h.key)).toEqual(['browser/navigate']);
  });

  it('runs a parsed query end to end', () => {
    const { query, options } = searchRequest(parseQuery('"the web" -lookup search'));
    expect(keys(query, options).sort()).toEqual([
      'copy-a/web_search',
      'copy-b/web_search',
      'news/get_headlines',
    ]);
  });
});
