import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CategoryId } from '../config/index.js';
import { compileRules, evaluateRules, type RuleDecision, type RuleTool } from './index.js';

/** A pattern with its meaning spelled out as a predicate, so the oracle never runs the compiler. */
const POOL: [string, (s: string) => boolean][] = [
  ['a*', (s) => s.startsWith('a')],
  ['*b', (s) => s.endsWith('b')],
  ['*a*', (s) => s.includes('a')],
  ['s1/*', (s) => s.startsWith('s1/')],
  ['?b', (s) => s.length === 2 && s[1] === 'b'],
  ['/^S2\\//i', (s) => /^s2\//i.test(s)],
  ['ab', (s) => s === 'ab'],
  ['{a,b}?', (s) => s.length === 2 && 'ab'.includes(s[0]!)],
  ['s2/ab', (s) => s === 's2/ab'],
  ['*', () => true],
];
const CATEGORIES: CategoryId[] = ['code', 'web', 'data'];

const arbRule = fc.record(
  {
    match: fc.array(fc.tuple(fc.nat(POOL.length - 1), fc.boolean()), { minLength: 1, maxLength: 3 }),
    server: fc.constantFrom('s1', 's2', 's3'),
    enabled: fc.boolean(),
    tags: fc.array(fc.constantFrom('t1', 't2', 't3'), { maxLength: 2 }),
    useCases: fc.array(fc.constantFrom('save a note', 'test my website', 'read mail'), { maxLength: 2 }),
    category: fc.constantFrom(...CATEGORIES),
    pin: fc.boolean(),
  },
  { requiredKeys: ['match', 'tags'] },
);
const arbTool = fc
  .tuple(fc.constantFrom('s1', 's2'), fc.stringMatching(/^[ab]{1,3}$/))
  .map(([server, name]) => ({ key: `${server}/${name}`, server, name }));

type ArbRule = typeof arbRule extends fc.Arbitrary<infer R> ? R : never;

/** The spec read literally (docs/menu.md, "Rules"), over the predicates of POOL. */
function oracle(rules: ArbRule[], t: RuleTool): RuleDecision {
  const hits = ([i, negated]: [number, boolean]) => {
    const f = POOL[i]![1];
    return (f(t.name) || f(t.key)) !== negated;
  };
  const matching = rules
    .map((r, index) => ({ ...r, index }))
    .filter((r) => r.server === undefined || r.server === t.server)
    .filter((r) => {
      const positive = r.match.filter(([, neg]) => !neg);
      const negative = r.match.filter(([, neg]) => neg);
      return (positive.length === 0 || positive.some(hits)) && negative.every(hits);
    });
  const decider = matching.find((r) => r.enabled !== undefined);
  const category = matching.findLast((r) => r.category !== undefined)?.category;
  return {
    visible: decider ? decider.enabled! : !rules.some((r) => r.enabled === true),
    decidedBy: decider ? decider.index : null,
    tags: [...new Set(matching.flatMap((r) => r.tags))],
    useCases: [...new Set(matching.flatMap((r) => r.useCases ?? []))],
    ...(category === undefined ? {} : { category }),
    pinned: matching.findLast((r) => r.pin !== undefined)?.pin ?? false,
  };
}

describe('evaluateRules against the spec read literally', () => {
  it('agrees on random rules and tools', () => {
    fc.assert(
      fc.property(
        fc.array(arbRule, { maxLength: 6 }),
        fc.uniqueArray(arbTool, { selector: (t) => t.key }),
        (raw, tools) => {
          const rules = raw.map((r) => ({
            ...r,
            match: r.match.map(([i, neg]) => `${neg ? '!' : ''}${POOL[i]![0]}`),
          }));
          const got = evaluateRules(compileRules(rules), tools);
          for (const t of tools) expect(got.get(t.key)).toEqual(oracle(raw, t));
        },
      ),
      { numRuns: 500 },
    );
  });
});
