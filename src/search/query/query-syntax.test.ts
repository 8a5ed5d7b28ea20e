import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CarteError } from '../../errors.js';
import { parseQuery, searchRequest, type ParsedQuery } from '../index.js';

const empty: ParsedQuery = {
  text: '',
  terms: [],
  phrases: [],
  tags: [],
  categories: [],
  exclude: [],
  required: [],
  anyOf: [],
};

describe('parseQuery', () => {
  it.each<[string, Partial<ParsedQuery>]>([
    ['read file', { text: 'read file', terms: ['read', 'file'] }],
    ['AND', { text: 'AND', terms: ['AND'] }],
    [
      'cats AND dogs OR NOT birds',
      {
        text: 'cats AND dogs NOT birds',
        terms: ['cats', 'AND', 'birds'],
        anyOf: [[{ word: 'dogs' }, { word: 'NOT' }]],
      },
    ],
    ['read or write', { text: 'read or write', terms: ['read', 'or', 'write'] }],
    ['+files list', { text: 'files list', terms: ['list'], required: ['files'] }],
    ['+5 +x9', { text: '5 x9', required: ['5', 'x9'] }],
    ['++ +- +=x', { text: '++ +- +=x', terms: ['++', '+-', '+=x'] }],
    ['+"read a file"', { text: 'read a file', phrases: ['read a file'] }],
    [
      'read OR write file',
      { text: 'read write file', terms: ['file'], anyOf: [[{ word: 'read' }, { word: 'write' }]] },
    ],
    [
      '"phrase one" OR "phrase two" OR x',
      {
        text: 'phrase one phrase two x',
        anyOf: [[{ phrase: 'phrase one' }, { phrase: 'phrase two' }, { word: 'x' }]],
      },
    ],
    [
      'a OR b c OR d +e -f tag:t',
      {
        text: 'a b c d e',
        anyOf: [
          [{ word: 'a' }, { word: 'b' }],
          [{ word: 'c' }, { word: 'd' }],
        ],
        required: ['e'],
        exclude: ['f'],
        tags: ['t'],
      },
    ],
    ['say"hi there"', { text: 'say"hi there"', terms: ['say"hi', 'there"'] }],
    ['"read a file" fast', { text: 'read a file fast', terms: ['fast'], phrases: ['read a file'] }],
    ['server:github issue', { text: 'issue', terms: ['issue'], server: 'github' }],
    ['server:@upstash/context7-mcp docs', { text: 'docs', terms: ['docs'], server: '@upstash/context7-mcp' }],
    ['SERVER:a server:b x', { text: 'x', terms: ['x'], server: 'b' }],
    [
      'tag:prod tag:fs category:Files ls',
      { text: 'ls', terms: ['ls'], tags: ['prod', 'fs'], categories: ['Files'] },
    ],
    ['search -github -gitlab', { text: 'search', terms: ['search'], exclude: ['github', 'gitlab'] }],
    [
      'read-file e-mail - --flag -5',
      { text: 'read-file e-mail - --flag -5', terms: ['read-file', 'e-mail', '-', '--flag', '-5'] },
    ],
    [
      'http://x.org note: a:b server:',
      { text: 'http://x.org note: a:b server:', terms: ['http://x.org', 'note:', 'a:b', 'server:'] },
    ],
    ['"" "  " x', { text: 'x', terms: ['x'] }],
    ['"-foo"', { text: '-foo', phrases: ['-foo'] }],
    ['', {}],
  ])('%j', (input, expected) => {
    expect(parseQuery(input)).toEqual({ ...empty, ...expected });
  });

  it.each<[string, string]>([
    ['read OR', '"OR" at the end has nothing after it'],
    ['OR read', '"OR" at the start has nothing before it'],
    ['a OR OR b', '"OR" at character 6 has nothing between it and the "OR" before it'],
    ['a OR b OR', '"OR" at the end has nothing after it'],
    ['read "" OR x', '"OR" at character 9 has nothing before it'],
    ['x OR ""', '"OR" at character 3 has nothing after it'],
    ['read + file', '"+" at character 6 has no word after it'],
    ['+', '"+" at character 1 has no word after it'],
    ['"read file', 'the quote at character 1 is never closed'],
    ['list "read" "file', 'the quote at character 13 is never closed'],
    ['+"read', 'the quote at character 2 is never closed'],
    ['tag:fs OR read', '"OR" at character 8 can join only words and phrases, not "tag:fs"'],
    ['read OR -write', '"OR" at character 6 can join only words and phrases, not "-write"'],
    ['read OR +write', '"OR" at character 6 can join only words and phrases, not "+write"'],
  ])('%j is bad_input naming where', (input, why) => {
    expect(() => parseQuery(input)).toThrow(
      new CarteError('bad_input', `query ${JSON.stringify(input)}: ${why}`),
    );
    try {
      parseQuery(input);
    } catch (err) {
      expect((err as CarteError).code).toBe('bad_input');
    }
  });

  it('never misreads plain words: text without operators comes back word for word', () => {
    const plain = fc.stringMatching(/^[A-Za-z0-9_.]{1,8}$/).filter((w) => w !== 'OR');
    fc.assert(
      fc.property(fc.array(plain, { minLength: 1, maxLength: 6 }), (words) => {
        const parsed = parseQuery(words.join(' '));
        expect(parsed.terms).toEqual(words);
        expect(parsed.text).toBe(words.join(' '));
      }),
    );
  });
});

describe('searchRequest', () => {
  it('turns a parsed query into a search call', () => {
    const { query, options } = searchRequest(
      parseQuery('"web search" server:s tag:t category:c -news recent'),
      { limit: 3 },
    );
    expect(query).toBe('web search recent');
    expect(options).toEqual({
      limit: 3,
      server: 's',
      phrases: ['web search'],
      tags: ['t'],
      categories: ['c'],
      exclude: ['news'],
    });
  });

  it('keeps the base options when the query has no filters', () => {
    expect(searchRequest(parseQuery('x'), { server: 'a', minRelevance: 0.5 })).toEqual({
      query: 'x',
      options: { server: 'a', minRelevance: 0.5 },
    });
  });
});
