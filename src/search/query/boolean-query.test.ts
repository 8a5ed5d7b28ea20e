import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, parseQuery, searchRequest, tokenize, type SearchDoc } from '../index.js';

// Boolean queries (issue 29, item 4): `+word` and `a OR b` filter the hits through the index's own
// analysis (a required "+files" matches "file"), and the survivors keep today's order.
const doc = (server: string, name: string, description: string): SearchDoc => ({
  key: `${server}/${name}`,
  server,
  name,
  description,
});
const CATALOG = [
  doc('fs', 'read_file', 'Read the contents of a file from disk.'),
  doc('fs', 'list_files', 'List the files in a folder.'),
  doc('fs', 'list_directory', 'List the entries of a directory.'),
  doc('mail', 'send_email', 'Send an email message to a recipient.'),
  doc('web', 'fetch', 'Fetch a URL and return the page text.'),
];
const index = buildSearchIndex(CATALOG);
const search = (query: string): string[] => {
  const { query: text, options } = searchRequest(parseQuery(query), { limit: 50 });
  return index.search(text, options).map((h) => h.key);
};
const plain = (query: string): string[] => index.search(query, { limit: 50 }).map((h) => h.key);

describe('boolean queries', () => {
  it.each<[string, string[]]>([
    ['list +files', ['fs/list_files', 'fs/read_file']],
    ['list +file', ['fs/list_files', 'fs/read_file']],
    ['+listing', ['fs/list_files', 'fs/list_directory']],
    ['read OR fetch', ['fs/read_file', 'web/fetch']],
    ['reads OR emails', ['fs/read_file', 'mail/send_email']],
    ['"read the contents" OR "an email message"', ['fs/read_file', 'mail/send_email']],
    ['"contents read" OR url', ['web/fetch']],
    ['files OR url -fetch', ['fs/read_file', 'fs/list_files']],
    ['list +file folder OR url', ['fs/list_files']],
    ['+list +directory', ['fs/list_directory']],
    ['+list email OR page', []],
    ['+the file', plain('the file')],
    ['the OR nothing file', plain('the nothing file')],
    ['+read-file', ['fs/read_file']],
    ['+nowhere file', []],
  ])('%j finds %j', (query, expected) => {
    expect(search(query).sort()).toEqual([...expected].sort());
  });

  it('keeps the order of the search without the filter', () => {
    const all = plain('list files folder directory');
    expect(search('list files +list directory OR folder')).toEqual(
      all.filter((k) => k === 'fs/list_files' || k === 'fs/list_directory'),
    );
  });
});

// The oracle: a brute-force scan of each tool's words, with the stems written out by hand.
const STEMS: Record<string, string | undefined> = {
  read: 'read',
  reads: 'read',
  reading: 'read',
  file: 'file',
  files: 'file',
  list: 'list',
  listing: 'list',
  send: 'send',
  email: 'email',
  emails: 'email',
  page: 'page',
  pages: 'page',
  the: undefined, // a stop word: it requires nothing
};
const VOCAB = Object.keys(STEMS);
type Alt = { word: string } | { phrase: string };

function oracle(d: SearchDoc, q: { require: string[]; anyOf: Alt[][]; exclude: string[] }): boolean {
  const words = tokenize([d.name, d.title, d.description, d.server].join(' '));
  const stems = new Set(words.map((w) => STEMS[w] ?? w));
  const hasWord = (w: string) => STEMS[w] === undefined || stems.has(STEMS[w]);
  const hasPhrase = (p: string) => ` ${words.join(' ')} `.includes(` ${tokenize(p).join(' ')} `);
  const has = (a: Alt) => ('word' in a ? hasWord(a.word) : hasPhrase(a.phrase));
  return (
    q.require.every(hasWord) &&
    q.anyOf.every((g) => g.some(has)) &&
    !q.exclude.some((w) => STEMS[w] !== undefined && stems.has(STEMS[w]))
  );
}

const word = fc.constantFrom(...VOCAB);
const alt: fc.Arbitrary<Alt> = fc.oneof(
  word.map((w) => ({ word: w })),
  fc.tuple(word, word).map(([a, b]) => ({ phrase: `${a} ${b}` })),
);
const docs = fc
  .array(fc.array(word, { maxLength: 6 }), { minLength: 1, maxLength: 20 })
  .map((descs) => descs.map((ws, i) => doc(i % 2 ? 'alpha' : 'beta', `tool${i}`, ws.join(' '))));
const queries = fc.record({
  terms: fc.array(word, { maxLength: 3 }),
  require: fc.array(word, { maxLength: 2 }),
  anyOf: fc.array(fc.array(alt, { minLength: 2, maxLength: 3 }), { maxLength: 2 }),
  exclude: fc.array(word, { maxLength: 1 }),
});
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const written = (a: Alt) => ('word' in a ? a.word : `"${a.phrase}"`);

/** Whether the index keeps `w` as a word at all (stopwords it drops can filter nothing). */
const indexed = (w: string): boolean =>
  buildSearchIndex([doc('x', 'y', w)]).search(w, { limit: 1 }).length > 0;

describe('boolean queries against a brute-force scan', () => {
  it('keep exactly the hits with every required word, an alternative of each group and no excluded word', () => {
    fc.assert(
      fc.property(docs, queries, (catalog, q) => {
        const text = [
          ...q.terms,
          ...q.require.map((w) => `+${w}`),
          ...q.anyOf.map((g) => g.map(written).join(' OR ')),
          ...q.exclude.map((w) => `-${w}`),
        ].join(' ');
        const parsed = searchRequest(parseQuery(text), { limit: 50 });
        const idx = buildSearchIndex(catalog);
        const got = idx.search(parsed.query, parsed.options).map((h) => h.key);
        const byKey = new Map(catalog.map((d) => [d.key, d]));
        // No words but a filter (`-x` alone): a listing of every tool by server then name, filtered
        // alike; no words and no filter (an excluded word the index never keeps, a stopword such as
        // `-the`, filters nothing): nothing.
        const filters = q.exclude.some(indexed);
        const unfiltered =
          parsed.query.trim() === '' && filters
            ? [...catalog].sort((a, b) => cmp(a.server, b.server) || cmp(a.name, b.name)).map((d) => d.key)
            : idx.search(parsed.query, { limit: 50 }).map((h) => h.key);
        expect(got).toEqual(unfiltered.filter((k) => oracle(byKey.get(k)!, q)));
      }),
      { numRuns: 300 },
    );
  });
});
