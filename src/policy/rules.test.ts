import { describe, expect, it } from 'vitest';
import { CarteError } from '../errors.js';
import {
  compileRules,
  describeRule,
  evaluateRules,
  explainVisibility,
  type RuleDecision,
  type RuleInput,
  type RuleTool,
} from './index.js';

const tool = (key: string): RuleTool => {
  const [server, name] = key.split('/') as [string, string];
  return { key, server, name };
};
const TOOLS = [
  'github/create_issue',
  'github/delete_repo',
  'fs/read_file',
  'fs/delete_file',
  'web/fetch',
].map(tool);

function decide(rules: RuleInput[]): Record<string, RuleDecision> {
  return Object.fromEntries(evaluateRules(compileRules(rules), TOOLS));
}

/** Which of TOOLS are visible. */
function shown(rules: RuleInput[]): string[] {
  return Object.entries(decide(rules))
    .filter(([, d]) => d.visible)
    .map(([key]) => key);
}

describe('evaluateRules: visibility', () => {
  it.each<[string, RuleInput[], string[]]>([
    ['no rules show everything', [], TOOLS.map((t) => t.key)],
    [
      'a hiding rule hides its matches only',
      [{ match: '*delete*', enabled: false }],
      ['github/create_issue', 'fs/read_file', 'web/fetch'],
    ],
    [
      'the first matching rule that sets enabled decides',
      [
        { match: 'delete_file', enabled: true },
        { match: '*delete*', enabled: false },
      ],
      ['fs/delete_file'],
    ],
    [
      'a later rule cannot overturn an earlier decision',
      [
        { match: '*delete*', enabled: false },
        { match: 'delete_file', enabled: true },
      ],
      [],
    ],
    [
      'rules without enabled do not decide',
      [
        { match: '*', tags: ['x'] },
        { match: 'fs/*', enabled: false },
      ],
      ['github/create_issue', 'github/delete_repo', 'web/fetch'],
    ],
    [
      'whitelist: any enabled: true hides the unmatched',
      [{ match: 'github/*', enabled: true }],
      ['github/create_issue', 'github/delete_repo'],
    ],
    [
      'whitelist with an exception first',
      [
        { match: 'delete_*', enabled: false },
        { match: 'github/*', enabled: true },
      ],
      ['github/create_issue'],
    ],
    [
      'negation inside a rule: any positive and no negative',
      [{ match: ['github/*', '!*delete*'], enabled: true }],
      ['github/create_issue'],
    ],
    [
      'only negations match everything they exclude not',
      [{ match: ['!fs/*', '!web/*'], enabled: false }],
      ['fs/read_file', 'fs/delete_file', 'web/fetch'],
    ],
    [
      'server limits a rule to one server',
      [{ match: 'delete_*', server: 'fs', enabled: false }],
      ['github/create_issue', 'github/delete_repo', 'fs/read_file', 'web/fetch'],
    ],
    [
      'a server with no tools matches nothing',
      [{ match: '*', server: 'gone', enabled: false }],
      TOOLS.map((t) => t.key),
    ],
    [
      'a pattern matches the name',
      [{ match: 'fetch', enabled: false }],
      ['github/create_issue', 'github/delete_repo', 'fs/read_file', 'fs/delete_file'],
    ],
    [
      'or the key',
      [{ match: 'web/fetch', enabled: false }],
      ['github/create_issue', 'github/delete_repo', 'fs/read_file', 'fs/delete_file'],
    ],
    [
      '* crosses the / of a key',
      [{ match: '*b/c*', enabled: false }],
      ['github/delete_repo', 'fs/read_file', 'fs/delete_file', 'web/fetch'],
    ],
    ['globs are case-sensitive', [{ match: 'FETCH', enabled: false }], TOOLS.map((t) => t.key)],
    [
      'regex flags apply',
      [{ match: '/FETCH|REPO/i', enabled: false }],
      ['github/create_issue', 'fs/read_file', 'fs/delete_file'],
    ],
    ['a regex searches unanchored', [{ match: '/_/', enabled: false }], ['web/fetch']],
    [
      'an anchored regex on the key',
      [{ match: '/^fs\\//', enabled: false }],
      ['github/create_issue', 'github/delete_repo', 'web/fetch'],
    ],
  ])('%s', (_name, rules, expected) => {
    expect(shown(rules)).toEqual(expected);
  });

  it('names the deciding rule, or null when none decided', () => {
    const d = decide([
      { match: 'web/*', tags: ['net'] },
      { match: 'fs/*', enabled: true },
      { match: '*', enabled: false },
    ]);
    expect([d['fs/read_file']?.decidedBy, d['web/fetch']?.decidedBy]).toEqual([1, 2]);
    expect(decide([{ match: 'fs/*', enabled: true }])['web/fetch']).toEqual({
      visible: false,
      decidedBy: null,
      tags: [],
      useCases: [],
      pinned: false,
    });
  });
});

describe('evaluateRules: tags, use cases, category, pin', () => {
  it.each<[string, RuleInput[], Partial<RuleDecision>]>([
    [
      'tags add up over every matching rule, in order, without repeats',
      [
        { match: '*', tags: ['all', 'shared'] },
        { match: 'web/*', tags: ['net', 'shared'] },
        { match: 'nothing', tags: ['never'] },
        { match: 'fetch', tags: ['read', 'net'] },
      ],
      { tags: ['all', 'shared', 'net', 'read'] },
    ],
    [
      'use cases add up over every matching rule, in order, without repeats',
      [
        { match: '*', useCases: ['save a note to disk'] },
        { match: 'web/*', useCases: ['test my website', 'save a note to disk'] },
        { match: 'nothing', useCases: ['never'] },
      ],
      { useCases: ['save a note to disk', 'test my website'] },
    ],
    [
      'the last matching category wins',
      [
        { match: '*', category: 'utilities' },
        { match: 'web/*', category: 'web' },
        { match: 'nothing', category: 'data' },
      ],
      { category: 'web' },
    ],
    ['pin: a matching rule pins', [{ match: 'fetch', pin: true }], { pinned: true }],
    [
      'pin: the last matching rule wins, so a later rule can unpin',
      [
        { match: '*', pin: true },
        { match: 'web/*', pin: false },
      ],
      { pinned: false },
    ],
    [
      'pin: a rule without pin leaves it',
      [
        { match: '*', pin: true },
        { match: 'web/*', tags: ['x'] },
      ],
      { pinned: true },
    ],
    [
      'a hidden tool still collects its tags and category',
      [
        { match: 'fetch', enabled: false },
        { match: '*', tags: ['t'], category: 'web' },
      ],
      { visible: false, decidedBy: 0, tags: ['t'], category: 'web' },
    ],
  ])('%s', (_name, rules, expected) => {
    const d = decide(rules)['web/fetch'];
    expect(d).toMatchObject(expected);
  });

  it('leaves category out when no rule sets one', () => {
    expect(decide([{ match: '*', tags: ['t'] }])['web/fetch']).not.toHaveProperty('category');
  });

  it('decides every tool once, by key', () => {
    expect([...evaluateRules(compileRules([]), TOOLS).keys()]).toEqual(TOOLS.map((t) => t.key));
  });
});

describe('compileRules', () => {
  it.each<[RuleInput[], string]>([
    [[{ match: 'x' }, { match: '/foo(/' }], 'rules.1.match: invalid regex "/foo(/": Unterminated group'],
    [[{ match: ['a', 'b', '[a-c'] }], 'rules.0.match.2: invalid glob "[a-c": unclosed "["'],
  ])('throws bad_config naming the rule and pattern: %j', (rules, message) => {
    let error: unknown;
    try {
      compileRules(rules);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CarteError);
    expect(error).toMatchObject({ code: 'bad_config', message });
  });
});

describe('describeRule and explainVisibility', () => {
  const rules = compileRules([
    { match: '*github*' },
    { match: ['delete_*', '!/safe/i'], server: 'fs', enabled: false },
    { match: 'fs/*', enabled: true },
  ]);

  it('names a rule by index, server and patterns', () => {
    expect(describeRule(rules, 0)).toBe('rules[0] (match "*github*")');
    expect(describeRule(rules, 1)).toBe('rules[1] (server "fs", match "delete_*", "!/safe/i")');
  });

  it('says why a tool is shown or hidden', () => {
    const d = evaluateRules(rules, TOOLS);
    const why = (key: string) => explainVisibility(rules, d.get(key)!);
    expect(why('fs/delete_file')).toBe('hidden by rules[1] (server "fs", match "delete_*", "!/safe/i")');
    expect(why('fs/read_file')).toBe('shown by rules[2] (match "fs/*")');
    expect(why('web/fetch')).toBe('hidden: a rule says "enabled: true" and none matches it');
    const open = compileRules([]);
    expect(explainVisibility(open, evaluateRules(open, TOOLS).get('web/fetch')!)).toBe(
      'shown: no rule sets "enabled" for it',
    );
  });
});
