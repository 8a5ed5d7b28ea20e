import { extname } from 'node:path';
import { parseJsonc } from './parse-json.js';
import { yamlLib } from './yaml-lib.js';
import type { Problems } from '../problems/problems.js';

export type Syntax = 'yaml' | 'json';

const SYNTAX_BY_EXTENSION: Record<string, Syntax> = { '.yaml': 'yaml', '.yml': 'yaml', '.json': 'json' };

/** YAML or JSON by the file's extension, or undefined for any other extension. */
export function syntaxOf(path: string): Syntax | undefined {
  const ext = extname(path).toLowerCase();
  return Object.hasOwn(SYNTAX_BY_EXTENSION, ext) ? SYNTAX_BY_EXTENSION[ext] : undefined;
}

/** Parses config text into plain data; syntax errors become problems with line and column. */
export function parseText(text: string, path: string, out: Problems): { ok: boolean; value: unknown } {
  const syntax = syntaxOf(path);
  if (syntax === undefined) {
    const ext = extname(path) || '(none)';
    out.error([], `unsupported config file extension ${JSON.stringify(ext)}; use .yaml, .yml or .json`);
    return { ok: false, value: undefined };
  }
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const depth = bracketDepth(body);
  if (depth > MAX_NESTING) {
    // The YAML parser can run out of memory on runaway flow nesting, which no catch can stop.
    out.error([], `nesting is deeper than ${MAX_NESTING} levels (brackets nest ${depth} deep)`);
    return { ok: false, value: undefined };
  }
  const parsed = syntax === 'json' ? parseJsonText(body, out) : parseYamlText(body, out);
  if (parsed.ok && hasProtoKey(parsed.value)) {
    out.error([], 'the key "__proto__" is not allowed anywhere in a config file');
    return { ok: false, value: undefined };
  }
  return parsed;
}

/** Deepest `[`/`{` nesting accepted before parsing (real configs nest fewer than 10). */
const MAX_NESTING = 64;

/** Deepest bracket nesting outside quoted strings and comments: a cheap guard, not a parser. */
function bracketDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return max;
}

/** Whether any object in the parsed data has an own `__proto__` key (zod records would drop it). */
function hasProtoKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Object.hasOwn(v, '__proto__')) return true;
    stack.push(...(Object.values(v) as unknown[]));
  }
  return false;
}

function parseJsonText(text: string, out: Problems): { ok: boolean; value: unknown } {
  const result = parseJsonc(text);
  if (result.ok) return result;
  const { line, col } = lineAndColumn(text, result.offset);
  out.error([], `invalid JSON at line ${line}, column ${col}: ${result.message}`);
  return { ok: false, value: undefined };
}

function parseYamlText(text: string, out: Problems): { ok: boolean; value: unknown } {
  const { LineCounter, parseDocument } = yamlLib();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const where = (offset: number): string => {
    const { line, col } = lineCounter.linePos(offset);
    return `line ${line}, column ${col}`;
  };
  for (const w of doc.warnings) out.warn([], `YAML warning at ${where(w.pos[0])}: ${w.message}`);
  for (const e of doc.errors) {
    const message =
      e.code === 'DUPLICATE_KEY'
        ? `duplicate key ${JSON.stringify(unquote(text.slice(e.pos[0], e.pos[1])))} at ${where(e.pos[0])}`
        : `invalid YAML at ${where(e.pos[0])}: ${e.message}`;
    out.error([], message);
  }
  if (doc.errors.length > 0) return { ok: false, value: undefined };
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: 100 }) };
  } catch (err) {
    // Unresolved or runaway aliases only surface when the document is turned into data.
    out.error([], `invalid YAML: ${err instanceof Error ? err.message : String(err)}`);
    return { ok: false, value: undefined };
  }
}

function unquote(key: string): string {
  const k = key.trim();
  return /^(["']).*\1$/s.test(k) ? k.slice(1, -1) : k;
}

/** 1-based line and column of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, col: offset - before.lastIndexOf('\n') };
}
