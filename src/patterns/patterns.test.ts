import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CarteError } from '../errors.js';
import { compilePattern } from './index.js';

const matches = (pattern: string, text: string) => compilePattern(pattern).test(text);

describe('compilePattern: matching', () => {
  it.each<[string, string, boolean]>([
    ['create_issue', 'create_issue', true],
    ['create_issue', 'create_issues', false],
    ['create_*', 'create_issue', true],
    ['create_*', 'github/create_issue', false],
    ['*_issue', 'create_issue', true],
    ['*github*', 'github/create_issue', true],
    ['*github*', 'create_issue', false],
    ['github/*', 'github/create_issue', true],
    ['*', '', true],
    ['**', 'a/b', true],
    ['a*b*c', 'a/xb/c', true],
    ['a*b*c', 'a/xc', false],
    ['get_?', 'get_a', true],
    ['get_?', 'get_ab', false],
    ['[a-c]*', 'browse', true],
    ['[a-c]*', 'delete', false],
    ['[!a-c]*', 'delete', true],
    ['[^a-c]*', 'browse', false],
    ['x[]]y', 'x]y', true],
    ['x[!]]y', 'x]y', false],
    ['x[\\-]y', 'x-y', true],
    ['{get,list}_*', 'list_files', true],
    ['{get,list}_*', 'put_files', false],
    ['{a,b{c,d}}', 'bd', true],
    ['{a,}x', 'x', true],
    ['a,b', 'a,b', true],
    ['a}b', 'a}b', true],
    ['\\*', '*', true],
    ['\\*', 'x', false],
    ['a.b', 'a.b', true],
    ['a.b', 'axb', false],
    ['(x)|y', '(x)|y', true],
    ['Create_*', 'create_issue', false],
    ['/issue/', 'create_issue', true],
    ['/^create/', 'github/create_issue', false],
    ['/^github\\//', 'github/create_issue', true],
    ['/ISSUE$/i', 'create_issue', true],
    ['/a.b/s', 'a\nb', true],
    ['/a/b/', 'x/a/b', true],
    ['!create_*', 'create_issue', true],
  ])('%s on %s is %s', (pattern, text, expected) => {
    expect(matches(pattern, text)).toBe(expected);
  });

  it('marks negations and keeps the pattern as written', () => {
    expect(compilePattern('!/x/i')).toMatchObject({ source: '!/x/i', negated: true });
    expect(compilePattern('x')).toMatchObject({ source: 'x', negated: false });
  });
});

describe('compilePattern: errors', () => {
  it.each<[string, string]>([
    ['', 'empty pattern'],
    ['!', 'invalid pattern "!": nothing after "!"'],
    ['!!x', 'invalid pattern "!!x": only one leading "!" is allowed'],
    ['/foo(/', 'invalid regex "/foo(/": Unterminated group'],
    ['/a)/', 'invalid regex "/a)/": Unmatched \')\''],
    ['/foo', 'invalid regex "/foo": missing the closing "/"'],
    ['//i', 'invalid regex "//i": empty'],
    ['/x/g', 'invalid regex "/x/g": flag "g" is not allowed; use i, m, s, u or v'],
    ['!/x/y', 'invalid regex "/x/y": flag "y" is not allowed; use i, m, s, u or v'],
    ['/x/ii', 'invalid regex "/x/ii": flag "i" is repeated'],
    ['/x/uv', 'invalid regex "/x/uv": flags "u" and "v" cannot be combined'],
    ['[a-c', 'invalid glob "[a-c": unclosed "["'],
    ['x[]', 'invalid glob "x[]": unclosed "["'],
    ['[c-a]', 'invalid glob "[c-a]": Range out of order in character class'],
    ['{a,b', 'invalid glob "{a,b": unclosed "{"'],
    ['a\\', 'invalid glob "a\\\\": ends with a lone "\\"'],
  ])('%j: %s', (pattern, message) => {
    let error: unknown;
    try {
      compilePattern(pattern);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CarteError);
    expect({ code: (error as CarteError).code, message: (error as CarteError).message }).toEqual({
      code: 'bad_config',
      message,
    });
  });
});

/** The glob spec read literally: braces expanded, then backtracking over `*`, `?` and classes. */
function naiveGlob(glob: string, text: string): boolean {
  const brace = /\{([^{}]*)\}/.exec(glob);
  if (brace) {
    const [head, tail] = [glob.slice(0, brace.index), glob.slice(brace.index + brace[0].length)];
    return brace[1]!.split(',').some((alt) => naiveGlob(head + alt + tail, text));
  }
  if (glob === '') return text === '';
  if (glob[0] === '*')
    return [...Array(text.length + 1).keys()].some((k) => naiveGlob(glob.slice(1), text.slice(k)));
  if (text === '') return false;
  if (glob[0] === '[') {
    const end = glob.indexOf(']', 2);
    const negated = glob[1] === '!';
    const set = glob.slice(negated ? 2 : 1, end);
    const inSet = [...set].some(
      (c, i) => c === text[0] || (set[i + 1] === '-' && c <= text[0]! && text[0]! <= set[i + 2]!),
    );
    return inSet !== negated && naiveGlob(glob.slice(end + 1), text.slice(1));
  }
  return (glob[0] === '?' || glob[0] === text[0]) && naiveGlob(glob.slice(1), text.slice(1));
}

describe('compilePattern: globs against a naive matcher', () => {
  const token = fc.constantFrom(
    'a',
    'b',
    '_',
    '/',
    '.',
    '*',
    '?',
    '[ab]',
    '[!a]',
    '[a-b]',
    '{a,b}',
    '{a_,}',
    '{*/,b}',
  );
  // A leading "/" makes a regex, not a glob.
  const glob = fc
    .array(token, { minLength: 1, maxLength: 6 })
    .map((t) => t.join(''))
    .filter((g) => !g.startsWith('/'));
  const text = fc
    .array(fc.constantFrom('a', 'b', 'c', '_', '/', '.'), { maxLength: 7 })
    .map((t) => t.join(''));

  it('agrees on every glob and text', () => {
    fc.assert(
      fc.property(glob, fc.array(text, { minLength: 1, maxLength: 8 }), (g, texts) => {
        const compiled = compilePattern(g);
        for (const t of texts) expect(compiled.test(t), `${g} on ${t}`).toBe(naiveGlob(g, t));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('compilePattern: testTool is a test of the name or the key', () => {
  const server = fc.constantFrom('s', 'ab', 'a-b');
  const name = fc
    .array(fc.constantFrom('a', 'b', '_', '-', '.', '/'), { maxLength: 5 })
    .map((t) => t.join(''));
  const tool = fc.tuple(server, name).map(([s, n]) => ({ name: n, key: `${s}/${n}` }));
  const agrees = (pattern: string, tools: { name: string; key: string }[]) => {
    const p = compilePattern(pattern);
    for (const t of tools)
      expect(p.testTool(t.name, t.key), `${pattern} on ${t.key}`).toBe(p.test(t.name) || p.test(t.key));
  };
  const globToken = fc.constantFrom('a', 'b', '_', '/', '-', '*', '?', '[ab]', '[!a]', '{a,b-}', 's');
  const regexToken = fc.constantFrom(
    'a',
    'b',
    '-',
    '/',
    '\\/',
    '^',
    '$',
    '\\b',
    '\\B',
    '.',
    '[^a]',
    '(?<!/)',
    '(?<=-)',
    'a*',
    '(a|-)',
  );

  it('for globs', () => {
    const glob = fc
      .array(globToken, { minLength: 1, maxLength: 5 })
      .map((t) => t.join(''))
      .filter((g) => !g.startsWith('/'));
    fc.assert(fc.property(glob, fc.array(tool, { maxLength: 8 }), agrees), { numRuns: 1000 });
  });

  it('for regexes, whatever their anchors and lookbehinds', () => {
    const regex = fc.tuple(
      fc.array(regexToken, { minLength: 1, maxLength: 5 }),
      fc.constantFrom('', 'i', 'm'),
    );
    fc.assert(
      fc.property(regex, fc.array(tool, { maxLength: 8 }), ([tokens, flags], tools) => {
        const pattern = `/${tokens.join('')}/${flags}`;
        let valid = true;
        try {
          compilePattern(pattern);
        } catch {
          valid = false;
        }
        if (valid) agrees(pattern, tools);
      }),
      { numRuns: 1000 },
    );
  });
});
