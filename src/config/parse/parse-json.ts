/**
 * A small JSON parser for config files. Why not JSON.parse: it keeps the last of two duplicate
 * keys silently, its messages carry no line or column (and some quote the source text, which may
 * hold a secret), and editors write JSONC (comments, trailing commas) into mcp.json files.
 */

export type JsonResult = { ok: true; value: unknown } | { ok: false; message: string; offset: number };

const MAX_DEPTH = 512;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// eslint-disable-next-line no-control-regex -- JSON forbids raw U+0000..U+001F inside strings
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Parses JSON with comments and trailing commas; duplicate keys are errors. Never throws. */
export function parseJsonc(text: string): JsonResult {
  const p = new Parser(text);
  try {
    const value = p.value(0);
    p.skip();
    if (p.pos < text.length) p.fail(`unexpected ${p.here()} after the end of the document`);
    return { ok: true, value };
  } catch (err) {
    if (err instanceof JsonSyntaxError) return { ok: false, message: err.message, offset: err.offset };
    throw err;
  }
}

class Parser {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(message: string, at = this.pos): never {
    throw new JsonSyntaxError(message, at);
  }

  here(): string {
    const c = this.text[this.pos];
    return c === undefined ? 'end of input' : JSON.stringify(c);
  }

  skip(): void {
    const t = this.text;
    for (;;) {
      const c = t[this.pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.pos++;
      else if (c === '/' && t[this.pos + 1] === '/') {
        const end = t.indexOf('\n', this.pos);
        this.pos = end === -1 ? t.length : end;
      } else if (c === '/' && t[this.pos + 1] === '*') {
        const end = t.indexOf('*/', this.pos + 2);
        if (end === -1) this.fail('unterminated /* comment');
        this.pos = end + 2;
      } else return;
    }
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail(`nesting is deeper than ${MAX_DEPTH} levels`);
    this.skip();
    const c = this.text[this.pos];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    return this.fail(`unexpected ${this.here()}; expected a value`);
  }

  object(depth: number): Record<string, unknown> {
    const entries: [string, unknown][] = [];
    const seen = new Set<string>();
    this.pos++;
    for (;;) {
      this.skip();
      if (this.text[this.pos] === '}') break;
      if (this.text[this.pos] !== '"')
        this.fail(`unexpected ${this.here()}; expected a key in double quotes`);
      const at = this.pos;
      const key = this.string();
      if (seen.has(key)) this.fail(`duplicate key ${JSON.stringify(key)}`, at);
      seen.add(key);
      this.skip();
      if (this.text[this.pos] !== ':') this.fail(`unexpected ${this.here()}; expected ":" after a key`);
      this.pos++;
      entries.push([key, this.value(depth + 1)]);
      this.skip();
      if (this.text[this.pos] === ',') this.pos++;
      else if (this.text[this.pos] !== '}') this.fail(`unexpected ${this.here()}; expected "," or "}"`);
    }
    this.pos++;
    // fromEntries defines own properties, so a "__proto__" key stays a plain key.
    return Object.fromEntries(entries);
  }

  array(depth: number): unknown[] {
    const items: unknown[] = [];
    this.pos++;
    for (;;) {
      this.skip();
      if (this.text[this.pos] === ']') break;
      items.push(this.value(depth + 1));
      this.skip();
      if (this.text[this.pos] === ',') this.pos++;
      else if (this.text[this.pos] !== ']') this.fail(`unexpected ${this.here()}; expected "," or "]"`);
    }
    this.pos++;
    return items;
  }

  string(): string {
    const start = this.pos++;
    let out = '';
    for (;;) {
      PLAIN_RUN.lastIndex = this.pos;
      const run = PLAIN_RUN.exec(this.text)![0];
      out += run;
      this.pos += run.length;
      const c = this.text[this.pos];
      if (c === '"') break;
      if (c === undefined) this.fail('unterminated string', start);
      if (c !== '\\') this.fail('control character in a string; escape it');
      const e = this.text[this.pos + 1] ?? '';
      if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) {
        out += String.fromCharCode(parseInt(this.text.slice(this.pos + 2, this.pos + 6), 16));
        this.pos += 6;
      } else if (Object.hasOwn(ESCAPES, e)) {
        out += ESCAPES[e];
        this.pos += 2;
      } else this.fail(`invalid escape "\\${e}" in a string`);
    }
    this.pos++;
    return out;
  }

  number(): number {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) this.fail('invalid number');
    this.pos += m[0].length;
    return Number(m[0]);
  }
}
