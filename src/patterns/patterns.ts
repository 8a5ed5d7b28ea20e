// The `match` patterns of tool rules: globs, `/regex/flags` and `!negations` (docs/menu.md, "Rules").
// Our own glob compiler (about 80 lines) instead of picomatch: picomatch is built for paths (`*`
// stops at `/` and skips names that start with a dot) and reads an unclosed `[` as a literal,
// where a rule needs `*` to cross the `/` of a `server/tool` key and a typo to be a config error.
import { CarteError, quote } from '../errors.js';

/** One compiled pattern; `test` answers for the pattern itself, before any negation. */
export interface CompiledPattern {
  /** The pattern as written, `!` included. */
  readonly source: string;
  readonly negated: boolean;
  test(text: string): boolean;
  /** Whether it matches a tool by its name or its `server/name` key (one test when that is enough). */
  testTool(name: string, key: string): boolean;
}

/** Regex flags a rule may use; `g` and `y` would make `test` stateful, `d` does nothing here. */
const REGEX_FLAGS = 'imsuv';

/** Compiles one pattern; throws CarteError('bad_config') naming the pattern and what is wrong. */
export function compilePattern(pattern: string): CompiledPattern {
  if (pattern === '') throw bad('empty pattern');
  const negated = pattern.startsWith('!');
  const body = negated ? pattern.slice(1) : pattern;
  if (body === '') throw bad(`invalid pattern ${quote(pattern)}: nothing after "!"`);
  if (body.startsWith('!')) throw bad(`invalid pattern ${quote(pattern)}: only one leading "!" is allowed`);
  const regex = body.startsWith('/');
  const matcher = regex ? compileRegex(body) : compileGlob(body);
  // A name ends its key, so a match in the name is a match in the key unless the pattern is
  // anchored at the start (a glob not opening with `*`; a regex with `^` or a lookbehind).
  const keyOnly = regex ? !/\^|\(\?<[=!]/.test(body) : body.startsWith('*');
  return { source: pattern, negated, ...testsOf(matcher, keyOnly) };
}

/** A glob of a common shape (`name`, `prefix*`, `*suffix`, `*part*`, `*`), tested without a regex. */
interface LiteralGlob {
  kind: 'equals' | 'startsWith' | 'endsWith' | 'includes' | 'any';
  text: string;
}

// One closure per shape, so a test is one call: a catalog of 7k tools runs every pattern on
// every tool, most of them before the engine has optimised anything.
function testsOf(m: RegExp | LiteralGlob, keyOnly: boolean): Pick<CompiledPattern, 'test' | 'testTool'> {
  if (m instanceof RegExp) {
    const test = (s: string) => m.test(s);
    if (keyOnly) return { test, testTool: (_name, key) => m.test(key) };
    return { test, testTool: (name, key) => m.test(name) || m.test(key) };
  }
  const { text } = m;
  switch (m.kind) {
    case 'any':
      return { test: () => true, testTool: () => true };
    case 'includes':
      return { test: (s) => s.includes(text), testTool: (_name, key) => key.includes(text) };
    case 'endsWith':
      return { test: (s) => s.endsWith(text), testTool: (_name, key) => key.endsWith(text) };
    case 'startsWith':
      return {
        test: (s) => s.startsWith(text),
        testTool: (name, key) => name.startsWith(text) || key.startsWith(text),
      };
    case 'equals':
      return { test: (s) => s === text, testTool: (name, key) => name === text || key === text };
  }
}

function bad(message: string): CarteError {
  return new CarteError('bad_config', message);
}

function compileRegex(text: string): RegExp {
  const fail = (why: string) => bad(`invalid regex ${quote(text)}: ${why}`);
  const close = text.lastIndexOf('/');
  if (close === 0) throw fail('missing the closing "/"');
  const [body, flags] = [text.slice(1, close), text.slice(close + 1)];
  if (body === '') throw fail('empty');
  for (const [i, flag] of [...flags].entries()) {
    if (!REGEX_FLAGS.includes(flag)) throw fail(`flag ${quote(flag)} is not allowed; use i, m, s, u or v`);
    if (flags.indexOf(flag) !== i) throw fail(`flag ${quote(flag)} is repeated`);
  }
  if (flags.includes('u') && flags.includes('v')) throw fail('flags "u" and "v" cannot be combined');
  try {
    return new RegExp(body, flags);
  } catch (err) {
    throw fail(engineReason(err, `/${body}/${flags}: `));
  }
}

/** V8 says `Invalid regular expression: /foo(/: Unterminated group`; keep the part after the source. */
function engineReason(err: unknown, source: string): string {
  const message = err instanceof Error ? err.message : String(err);
  const at = message.indexOf(source);
  return at >= 0 ? message.slice(at + source.length) : message;
}

function compileGlob(glob: string): RegExp | LiteralGlob {
  const literal = literalOf(glob);
  if (literal) return literal;
  const fail = (why: string) => bad(`invalid glob ${quote(glob)}: ${why}`);
  const tokens = globTokens(glob, fail);
  // A leading or trailing `*` is the same as no anchor at that end, and spares the engine a
  // backtracking `.*` on every test.
  const open = tokens[0] === STAR;
  if (open) tokens.shift();
  const openEnd = tokens.at(-1) === STAR;
  if (openEnd) tokens.pop();
  const source = `${open ? '' : '^'}${tokens.join('')}${openEnd ? '' : '$'}`;
  try {
    return new RegExp(source, 'su');
  } catch (err) {
    throw fail(engineReason(err, `/${source}/su: `));
  }
}

function literalOf(glob: string): LiteralGlob | undefined {
  const text = glob.replace(/^\*+|\*+$/g, '');
  if (text === '') return { kind: 'any', text };
  if (/[*?[\]{}\\,]/.test(text)) return undefined;
  const [lead, trail] = [glob.startsWith('*'), glob.endsWith('*')];
  const kind = lead ? (trail ? 'includes' : 'endsWith') : trail ? 'startsWith' : 'equals';
  return { kind, text };
}

const SYNTAX = /[\^$\\.*+?()[\]{}|/]/;
const escapeChar = (c: string) => (SYNTAX.test(c) ? `\\${c}` : c);

const STAR = '.*';

/**
 * The regex of a glob, token by token: `*` any run (`/` included: a key is `server/tool`), `?`
 * one character, `[abc]` `[a-c]` `[!a]` `[^a]` a class, `{a,b}` alternatives (may nest), `\x` a literal x.
 */
function globTokens(glob: string, fail: (why: string) => CarteError): string[] {
  const out: string[] = [];
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\') {
      if (i + 1 === glob.length) throw fail('ends with a lone "\\"');
      out.push(escapeChar(glob[++i]!));
    } else if (c === '*') {
      if (out.at(-1) !== STAR) out.push(STAR);
    } else if (c === '?') out.push('.');
    else if (c === '[') {
      const end = classEnd(glob, i);
      if (end < 0) throw fail('unclosed "["');
      out.push(classSource(glob.slice(i + 1, end)));
      i = end;
    } else if (c === '{') {
      out.push('(?:');
      depth++;
    } else if (c === '}' && depth > 0) {
      out.push(')');
      depth--;
    } else if (c === ',' && depth > 0) out.push('|');
    else out.push(escapeChar(c));
  }
  if (depth > 0) throw fail('unclosed "{"');
  return out;
}

/** Index of the `]` closing the class opened at `open`; a `]` right after `[` or `[!` is literal. */
function classEnd(glob: string, open: number): number {
  let i = open + 1;
  if (glob[i] === '!' || glob[i] === '^') i++;
  if (glob[i] === ']') i++;
  for (; i < glob.length; i++) {
    if (glob[i] === '\\') i++;
    else if (glob[i] === ']') return i;
  }
  return -1;
}

/** `[!a-c]` as `[^a-c]`; `-` stays a range, `\-` a literal `-`, other escapes a literal character. */
function classSource(inner: string): string {
  const negated = inner[0] === '!' || inner[0] === '^';
  let out = negated ? '[^' : '[';
  for (let i = negated ? 1 : 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c !== '\\') out += escapeChar(c);
    else {
      const next = inner[++i]!;
      out += next === '-' ? '\\-' : escapeChar(next);
    }
  }
  return `${out}]`;
}
