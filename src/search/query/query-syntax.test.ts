import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQuery, searchRequest, type ParsedQuery } from '../index.js';

const empty: ParsedQuery = { text: '', terms: [], phrases: [], tags: [], categories: [], exclude: [] };

describe('parseQuery', () => {
  it.each<[string, Partial<ParsedQuery>]>([
    ['read file', { text: 'read file', terms: ['read', 'file'] }],
    ['AND', { text: 'AND', terms: ['AND'] }],
    [
      'cats AND dogs OR NOT birds',
      { text: 'cats AND dogs OR NOT birds', terms: ['cats', 'AND', 'dogs', 'OR', 'NOT', 'birds'] },
    ],
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
    ['"unclosed quote', { text: '"unclosed quote', terms: ['"unclosed', 'quote'] }],
    ['"" "  " x', { text: 'x', terms: ['x'] }],
    ['"-foo"', { text: '-foo', phrases: ['-foo'] }],
    ['', {}],
  ])('%j', (input, expected) => {
    expect(parseQuery(input)).toEqual({ ...empty, ...expected });
  });

  it('never misreads plain words: text without operators comes back word for word', () => {
    const plain = fc.stringMatching(/^[A-Za-z0-9_.]{1,8}$/);
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
