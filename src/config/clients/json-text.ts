import { CarteError, quote } from '../../errors.js';
import { parseJsonc } from '../parse/parse-json.js';
import { lineAndColumn } from '../parse/parse-text.js';
import { isRecord } from '../problems/problems.js';

/**
 * Edits one top-level key of a client's JSON file in its text, so every other byte stays as the
 * user (or the client) wrote it: other keys, comments, trailing commas, indentation, line ends.
 * Only the edited value is rewritten, indented like the file.
 */

/** A member of the top-level object: where its key starts and its value starts and ends. */
interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

/** Parses client file text (comments and trailing commas allowed); CarteError naming the file and the place. */
export function parseClientJson(path: string, text: string): Record<string, unknown> {
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    const { line, col } = lineAndColumn(text, parsed.offset);
    throw new CarteError(
      'bad_config',
      `cannot read ${quote(path, 200)}: it is not valid JSON (line ${line}, column ${col}: ${parsed.message})`,
    );
  }
  if (!isRecord(parsed.value))
    throw new CarteError('bad_config', `cannot read ${quote(path, 200)}: its top level is not an object`);
  return parsed.value;
}

/** `text` with the top-level `key` set to `value`, added at the end when missing; text must parse. */
export function setTopLevel(text: string, key: string, value: unknown): string {
  const { members, close } = scanTopLevel(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const first = members[0];
  const indent = first ? indentBefore(text, first.keyStart) : '  ';
  const render = (v: unknown) =>
    indent === undefined
      ? JSON.stringify(v)
      : JSON.stringify(v, null, indent)
          .split('\n')
          .join(eol + indent);
  const found = members.find((m) => m.key === key);
  if (found) return text.slice(0, found.valueStart) + render(value) + text.slice(found.valueEnd);
  const member = `${JSON.stringify(key)}: ${render(value)}`;
  const last = members.at(-1);
  if (last === undefined) return `${text.slice(0, close)}${eol}  ${member}${eol}${text.slice(close)}`;
  const gap = indent === undefined ? ' ' : eol + indent;
  return `${text.slice(0, last.valueEnd)},${gap}${member}${text.slice(last.valueEnd)}`;
}

/**
 * `text` with the member `key` of the top-level object `section` set to `value`; the member must
 * exist (CarteError otherwise). Only that member's value is rewritten, indented like its key.
 */
export function setSectionMember(text: string, section: string, key: string, value: unknown): string {
  const top = scanTopLevel(text);
  const outer = top.members.find((m) => m.key === section);
  const inner = outer && text[outer.valueStart] === '{' ? scanObject(text, outer.valueStart) : undefined;
  const found = inner?.members.find((m) => m.key === key);
  if (!found) throw new CarteError('internal', `internal error (a bug): no "${section}"."${key}" to set`);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const step = top.members[0] ? indentBefore(text, top.members[0].keyStart) : undefined;
  const base = indentBefore(text, found.keyStart);
  const rendered =
    step === undefined || base === undefined
      ? JSON.stringify(value)
      : JSON.stringify(value, null, step)
          .split('\n')
          .join(eol + base);
  return text.slice(0, found.valueStart) + rendered + text.slice(found.valueEnd);
}

/** The whitespace that starts the key's line, or undefined when the key does not start a line. */
function indentBefore(text: string, at: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const lead = text.slice(lineStart, at);
  return /^[ \t]*$/.test(lead) && lineStart > 0 ? lead : undefined;
}

/** The top-level members and the offset of the closing brace. */
function scanTopLevel(text: string): { members: Member[]; close: number } {
  const s = new Scanner(text);
  s.skip();
  return scanObject(text, s.pos);
}

/** The members of the object whose `{` is at `start`, and the offset of its closing brace. */
function scanObject(text: string, start: number): { members: Member[]; close: number } {
  const s = new Scanner(text);
  s.pos = start;
  s.expect('{');
  const members: Member[] = [];
  for (;;) {
    s.skip();
    if (s.peek() === '}') return { members, close: s.pos };
    const keyStart = s.pos;
    s.string();
    const key = JSON.parse(text.slice(keyStart, s.pos)) as string;
    s.skip();
    s.expect(':');
    s.skip();
    const valueStart = s.pos;
    s.value();
    members.push({ key, keyStart, valueStart, valueEnd: s.pos });
    s.skip();
    if (s.peek() === ',') s.pos++;
  }
}

/** Walks text already checked by parseJsonc, so it only finds spans and never reports errors. */
class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  peek(): string | undefined {
    return this.text[this.pos];
  }

  expect(c: string): void {
    if (this.text[this.pos] !== c) throw new CarteError('internal', `expected ${c} at ${this.pos}`);
    this.pos++;
  }

  skip(): void {
    const t = this.text;
    for (;;) {
      const c = t[this.pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.pos++;
      else if (c === '/' && t[this.pos + 1] === '/') {
        const end = t.indexOf('\n', this.pos);
        this.pos = end === -1 ? t.length : end;
      } else if (c === '/' && t[this.pos + 1] === '*') this.pos = t.indexOf('*/', this.pos + 2) + 2;
      else return;
    }
  }

  string(): void {
    this.pos++; // the opening quote
    while (this.text[this.pos] !== '"') this.pos += this.text[this.pos] === '\\' ? 2 : 1;
    this.pos++;
  }

  value(): void {
    const c = this.peek();
    if (c === '"') return this.string();
    if (c !== '{' && c !== '[') {
      while (this.pos < this.text.length && !/[\s,}\]/]/.test(this.text[this.pos]!)) this.pos++;
      return;
    }
    let depth = 0;
    do {
      this.skip();
      const d = this.peek();
      if (d === '"') this.string();
      else {
        if (d === '{' || d === '[') depth++;
        else if (d === '}' || d === ']') depth--;
        this.pos++;
      }
    } while (depth > 0);
  }
}
