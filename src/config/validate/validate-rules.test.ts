import { describe, expect, it } from 'vitest';
import { CATEGORY_IDS as CATALOG_CATEGORIES } from '../../catalog/index.js';
import { CATEGORY_IDS, parseConfigText, type Problem } from '../index.js';

const SERVERS = 'servers:\n  github:\n    command: a\n  fs:\n    command: b\n';
const yaml = (rules: string) =>
  parseConfigText(`${SERVERS}rules:\n${rules}`, { path: '/cfg/carte.yaml', env: {} });
const only = (path: string, message: string): Problem[] => [{ path, message }];

describe('rules: valid', () => {
  it('keeps the rules in order, with tags defaulted and match as written', () => {
    const r = yaml(
      [
        "  - match: ['*github*', '!*delete*']",
        '    enabled: true',
        '    tags: [vcs]',
        '  - { match: /^fs\\//i, server: fs, category: files, pin: true }',
        '  - { match: "[a-c]*", enabled: false }',
      ].join('\n'),
    );
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(r.config?.rules).toEqual([
      { match: ['*github*', '!*delete*'], enabled: true, tags: ['vcs'] },
      { match: '/^fs\\//i', server: 'fs', category: 'files', pin: true, tags: [] },
      { match: '[a-c]*', enabled: false, tags: [] },
    ]);
  });

  it.each([
    ['no rules key', SERVERS],
    ['an empty rules key', `${SERVERS}rules:\n`],
    ['an empty list', `${SERVERS}rules: []\n`],
  ])('reads %s as no rules', (_name, text) => {
    expect(parseConfigText(text, { path: '/c/carte.yaml', env: {} }).config?.rules).toEqual([]);
  });
});

describe('rules: errors', () => {
  it.each<[string, string, Problem[]]>([
    ['not a list', '  match: x\n', only('rules', 'expected a list of rules, got an object')],
    [
      'a rule not an object',
      '  - "*github*"\n',
      only('rules.0', 'expected an object with "match", got "*github*"'),
    ],
    ['no match', '  - { enabled: false }\n', only('rules.0.match', '"match" is required')],
    [
      'empty match list',
      '  - { match: [], enabled: false }\n',
      only('rules.0.match', 'needs at least one pattern'),
    ],
    [
      'match not a pattern',
      '  - { match: 42, enabled: false }\n',
      only('rules.0.match', 'expected a pattern or a list of patterns, got 42'),
    ],
    [
      'a pattern not a string',
      '  - { match: [a, 7], enabled: false }\n',
      only('rules.0.match.1', 'expected a string, got 7'),
    ],
    ['empty pattern', '  - { match: "", enabled: false }\n', only('rules.0.match', 'empty pattern')],
    [
      'bad regex, by rule and pattern index',
      '  - { match: x, tags: [t] }\n  - { match: x, tags: [t] }\n  - { match: [a, "/foo(/"], enabled: false }\n',
      only('rules.2.match.1', 'invalid regex "/foo(/": Unterminated group'),
    ],
    [
      'bad regex flag',
      '  - { match: /x/g, enabled: false }\n',
      only('rules.0.match', 'invalid regex "/x/g": flag "g" is not allowed; use i, m, s, u or v'),
    ],
    [
      'unbalanced glob class',
      '  - { match: ["ok", "!get_[a-c"], enabled: false }\n',
      only('rules.0.match.1', 'invalid glob "get_[a-c": unclosed "["'),
    ],
    [
      'an empty use case',
      "  - { match: x, useCases: [''] }\n",
      only('rules.0.useCases.0', 'must not be empty'),
    ],
    [
      'use cases written as one string',
      "  - { match: x, useCases: 'save a note' }\n",
      only('rules.0.useCases', 'expected an array, got "save a note"'),
    ],
    [
      'unknown category',
      '  - { match: x, category: utilites }\n',
      only(
        'rules.0.category',
        'expected "code", "files", "web", "documents", "data", "infra", "ai", "security", "communication" or "utilities", got "utilites"; did you mean "utilities"?',
      ),
    ],
    [
      'unknown key',
      '  - { match: x, enable: false }\n',
      only('rules.0.enable', 'unknown key "enable"; did you mean "enabled"?'),
    ],
    [
      'enabled not a boolean',
      '  - { match: x, enabled: "no" }\n',
      only('rules.0.enabled', 'expected true or false, got "no"'),
    ],
    [
      'tags not a list',
      '  - { match: x, tags: vcs }\n',
      only('rules.0.tags', 'expected an array, got "vcs"'),
    ],
  ])('%s', (_name, rules, errors) => {
    const r = yaml(rules);
    expect(r.errors).toEqual(errors);
    expect(r.ok).toBe(false);
    expect(r.config).toBeUndefined();
  });

  it('reports every bad rule in one pass', () => {
    const r = yaml('  - { match: "[", enabled: false }\n  - { match: x, category: nope }\n  - 3\n');
    expect(r.errors.map((e) => e.path)).toEqual(['rules.0.match', 'rules.1.category', 'rules.2']);
  });
});

describe('rules: warnings', () => {
  it.each<[string, string, Problem[]]>([
    [
      'a server not configured, close to one',
      '  - { match: x, server: githb, enabled: false }\n',
      only('rules.0.server', 'no server "githb" is configured; did you mean "github"?'),
    ],
    [
      'a server not configured yet',
      '  - { match: x, server: slack, enabled: false }\n',
      only('rules.0.server', 'no server "slack" is configured; the rule applies once it is added'),
    ],
    [
      'a rule that sets nothing',
      '  - { match: x, server: fs }\n',
      only('rules.0', 'sets nothing; add "enabled", "tags", "useCases", "category", "pin" or "class"'),
    ],
    ['a rule that sets only use cases', "  - { match: x, useCases: ['save a note'] }\n", []],
  ])('%s', (_name, rules, warnings) => {
    const r = yaml(rules);
    expect(r).toMatchObject({ ok: true, errors: [], warnings });
  });
});

describe('rules: categories', () => {
  it('accepts exactly the categories the catalog assigns', () => {
    expect([...CATEGORY_IDS]).toEqual(CATALOG_CATEGORIES);
  });
});
