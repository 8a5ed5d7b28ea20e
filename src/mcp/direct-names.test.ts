import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseServerId } from '../config/index.js';
import { directNames, isProviderSafe } from './direct-names.js';
import { META_TOOLS } from './meta-tools.js';

const RESERVED = META_TOOLS.map((t) => t.name as string);
const SUFFIX = /_[0-9a-z]{6}$/;

/** A naive oracle for the readable form: split at the first "/", runs of other characters to "_". */
function readable(key: string): string {
  const slash = key.indexOf('/');
  const parts = slash < 0 ? [key] : [key.slice(0, slash), key.slice(slash + 1)];
  return parts.map((p) => p.replace(/[^\w-]+/gu, '_')).join('__');
}
const long = (n: number, c = 'x') => c.repeat(n);

/** Checks every property the names must have, whatever the keys. */
function expectValid(keys: readonly string[], names: Map<string, string>): void {
  expect([...names.keys()].sort()).toEqual([...new Set(keys)].sort());
  const values = [...names.values()];
  expect(values.filter((n) => !isProviderSafe(n))).toEqual([]);
  expect(new Set(values).size).toBe(values.length);
  expect(values.filter((n) => RESERVED.includes(n))).toEqual([]);
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('isProviderSafe', () => {
  it.each([
    ['github__create_issue', true],
    ['a', true],
    ['A-b_9', true],
    [long(64), true],
    [long(65), false],
    ['', false],
    ['a.b', false],
    ['a/b', false],
    ['a b', false],
    ['é', false],
  ])('%j -> %j', (name, safe) => {
    expect(isProviderSafe(name)).toBe(safe);
  });
});

describe('directNames, alone in the catalog', () => {
  it.each([
    ['github/create_issue', 'github__create_issue'],
    ['fs/read.file', 'fs__read_file'],
    ['s/a/b/c', 's__a_b_c'],
    ['s/read  the   file', 's__read_the_file'],
    ['s/读取文件', 's___'],
    ['s/😀x', 's___x'],
    ['s/Tool-Name_2', 's__Tool-Name_2'],
    ['s/', 's__'],
    [`s/${long(61)}`, `s__${long(61)}`],
  ])('%j keeps its readable name %j', (key, name) => {
    expect(directNames([key]).get(key)).toBe(name);
  });

  it.each([
    ['a readable form of 65 characters', `s/${long(62)}`, `s__${long(54)}`],
    ['a long unicode name', `server/${'名'.repeat(40)}${long(70, 'y')}`, `server___${long(48, 'y')}`],
    ['the empty key', '', ''],
    ['a meta-tool name (a key without "/")', 'search_tools', 'search_tools'],
  ])('%s gets a hash suffix', (_, key, head) => {
    const name = directNames([key]).get(key)!;
    expect(name).toMatch(SUFFIX);
    expect(name.slice(0, -7)).toBe(head);
    expect(name.length).toBeLessThanOrEqual(64);
    expect(isProviderSafe(name)).toBe(true);
  });
});

describe('directNames, over 64 characters', () => {
  it.each([
    [
      'cfocoder-financial-modeling-prep-mcp-server/getBalanceSheetStatementTTM',
      'cfocoder-financial-modeling-__getBalanceSheetStatementTTM_6ktmrz',
    ],
    [
      'hithereiamaliff-mcp-datagovmy/datagovmy_search_transit_stops_by_location',
      'hithereiamaliff-__datagovmy_search_transit_stops_by_locat_ms5jzy',
    ],
  ])('cuts the server id first, to 16 characters: %j -> %j (pinned: names must not change)', (key, name) => {
    expect(directNames([key]).get(key)).toBe(name);
  });
});

describe('directNames, on collision', () => {
  it('lets the one lossless key keep the readable name and suffixes the lossy ones', () => {
    const names = directNames(['a/b.c', 'a/b_c', 'a/b c']);
    expect(names.get('a/b_c')).toBe('a__b_c');
    expect(names.get('a/b.c')).toMatch(/^a__b_c_[0-9a-z]{6}$/);
    expect(names.get('a/b c')).toMatch(/^a__b_c_[0-9a-z]{6}$/);
    expect(names.get('a/b.c')).not.toBe(names.get('a/b c'));
  });

  it('suffixes every key when all are lossy', () => {
    const names = directNames(['a/b.c', 'a/b c']);
    expect([...names.values()].every((n) => SUFFIX.test(n))).toBe(true);
  });

  it('suffixes both keys when "__" in a server id makes two lossless keys read alike', () => {
    const names = directNames(['a__b/c', 'a/b__c']);
    expect(names.get('a__b/c')).toMatch(/^a__b__c_[0-9a-z]{6}$/);
    expect(names.get('a/b__c')).toMatch(/^a__b__c_[0-9a-z]{6}$/);
    expect(names.get('a__b/c')).not.toBe(names.get('a/b__c'));
  });

  it('keeps long names that share their first 57 characters apart', () => {
    const keys = [`s/${long(70)}1`, `s/${long(70)}2`, `s/${long(70)}3`];
    const names = directNames(keys);
    expectValid(keys, names);
    expect(new Set([...names.values()].map((n) => n.slice(0, 57))).size).toBe(1);
  });

  it('rehashes when a suffixed name is some tool\u2019s own readable name', () => {
    const taken = directNames(['a/b.c', 'a/b_c']).get('a/b.c')!;
    const impostor = `a/${taken.slice(3)}`;
    const names = directNames(['a/b.c', 'a/b_c', impostor]);
    expect(names.get(impostor)).toBe(taken);
    expect(names.get('a/b.c')).toMatch(/^a__b_c_[0-9a-z]{6}$/);
    expect(names.get('a/b.c')).not.toBe(taken);
    expectValid(['a/b.c', 'a/b_c', impostor], names);
  });

  it('ignores duplicate keys and returns the keys in sorted order', () => {
    const names = directNames(['b/x', 'a/y', 'b/x']);
    expect([...names]).toEqual([
      ['a/y', 'a__y'],
      ['b/x', 'b__x'],
    ]);
  });
});

describe('directNames, for any catalog (property)', () => {
  const server = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,20}$/);
  const tool = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.constantFrom('a', 'a.b', 'a_b', 'a b', 'a/b', '__b', 'b__', 'search_tools', long(70)),
  );
  const keys = fc
    .array(fc.tuple(server, tool), { maxLength: 60 })
    .map((ks) => ks.map(([s, t]) => `${s}/${t}`));

  it('gives valid, unique names, the same for any order of the keys', () => {
    fc.assert(
      fc.property(keys, fc.nat(), (ks, seed) => {
        const names = directNames(ks);
        expectValid(ks, names);
        expect(directNames(shuffled(ks, seed))).toEqual(names);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the readable name of a safe key that no other key reads like', () => {
    fc.assert(
      fc.property(keys, server, fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/), (ks, s, t) => {
        const own = `${s}/${t}`;
        fc.pre(!ks.some((k) => k !== own && readable(k) === `${s}__${t}`));
        expect(directNames([...ks, own]).get(own)).toBe(`${s}__${t}`);
      }),
    );
  });
});

// The big bench catalog (about 7,000 real tools); a clone without ../shared/bench skips these
// cases and says so on stderr (as test/quality/exact-name.test.ts does).
const BENCH = process.env.CARTE_BENCH_DATA ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'bench');
const FILES = ['catalog-livemcpbench.json', 'catalog-smithery-toolgym-distractors.json'];
const present = FILES.every((f) => existsSync(join(BENCH, f)));
if (!present)
  process.stderr.write(`direct-names 7k test skipped: no bench data at ${BENCH} (${FILES.join(', ')})\n`);

/** The catalog's keys as Carte stores them: server ids normalised as `carte` does on load. */
function loadBigKeys(): string[] {
  type BenchTool = { server: string; name: string };
  const tools = FILES.flatMap((f) => JSON.parse(readFileSync(join(BENCH, f), 'utf8')) as BenchTool[]);
  return tools.map((t) => `${normaliseServerId(t.server)}/${t.name}`);
}

describe.skipIf(!present)(`directNames over the big catalog (${BENCH})`, () => {
  const keys = present ? loadBigKeys() : [];

  it('names every tool validly and uniquely, the same for a shuffled catalog', () => {
    const start = performance.now();
    const names = directNames(keys);
    const ms = performance.now() - start;
    const suffixed = [...names].filter(([k, n]) => n !== readable(k)).length;
    // Logged, never asserted (timings belong in bench/).
    process.stderr.write(
      `directNames: ${names.size} keys in ${ms.toFixed(1)} ms, ${suffixed} with a hash suffix\n`,
    );
    expect(names.size).toBeGreaterThan(6000);
    expectValid(keys, names);
    expect(directNames(shuffled(keys, 7))).toEqual(names);
    expect(directNames([...keys].reverse())).toEqual(names);
  });
});
