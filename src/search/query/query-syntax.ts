// The search syntax people type (CLI, REST, web menu): phrases, field filters, exclusions,
// required words and OR groups (issue 29, item 4).
import type { Alternative, SearchOptions } from './types.js';
import { badQuery, scanQuery, type QueryToken } from './query-scan.js';

/** A parsed query; `text` is what the ranker sees (terms, phrases, required words, alternatives, in order). */
export interface ParsedQuery {
  text: string;
  /** Plain words, as typed ("AND", "NOT" and a lower-case "or" are just words). */
  terms: string[];
  /** Double-quoted phrases; every hit must contain each one. */
  phrases: string[];
  /** `server:ID`: only this server's tools (the last one wins). */
  server?: string;
  /** `tag:X`: every one must be a tag of the tool. */
  tags: string[];
  /** `category:X`: the tool must be in one of them. */
  categories: string[];
  /** `-word`: no hit may contain any of them. */
  exclude: string[];
  /** `+word`: every hit must contain each one. */
  required: string[];
  /** `a OR "b c" OR d`: every hit must contain at least one alternative of each group. */
  anyOf: Alternative[][];
}

// Only these prefixes are operators; "http://x", "note:" or "a:b" stay plain text.
const FIELDS = ['server', 'tag', 'category'] as const;
type Field = (typeof FIELDS)[number];
/** The OR operator: in capitals only, so a plain "or" stays a (stop) word. */
const OR = 'OR';

function readField(word: string): { field: Field; value: string } | undefined {
  const colon = word.indexOf(':');
  if (colon <= 0) return undefined;
  const field = word.slice(0, colon).toLowerCase();
  const value = word.slice(colon + 1);
  if (value === '' || !(FIELDS as readonly string[]).includes(field)) return undefined;
  return { field: field as Field, value };
}

const isOr = (t: QueryToken | undefined): boolean => t?.kind === 'word' && t.value === OR;
/** `-word` and `+word`: the sign then a letter or digit ("-5", "--flag", "e-mail" stay words). */
const signed = (w: string, sign: '-' | '+', digits: boolean): boolean =>
  w.length > 1 && w[0] === sign && (digits ? /[\p{L}\p{N}]/u : /\p{L}/u).test(w[1]!);

/** A token an OR may join: a plain word or a non-empty phrase. */
function isOperand(t: QueryToken): boolean {
  if (t.kind === 'phrase') return t.value !== '';
  const w = t.value;
  return !readField(w) && !signed(w, '-', false) && !w.startsWith('+');
}

/** Checks the OR at `i` has an operand on each side; bad_input naming where it is, else nothing. */
function checkOr(input: string, tokens: readonly QueryToken[], i: number): void {
  const or = tokens[i]!;
  const before = tokens[i - 1];
  const after = tokens[i + 1];
  const where = `"OR" at character ${or.at}`;
  if (!before) throw badQuery(input, `"OR" at the start has nothing before it`);
  if (before.kind === 'phrase' && before.value === '')
    throw badQuery(input, `${where} has nothing before it`);
  if (!after) throw badQuery(input, `"OR" at the end has nothing after it`);
  if (isOr(after))
    throw badQuery(input, `"OR" at character ${after.at} has nothing between it and the "OR" before it`);
  if (after.kind === 'phrase' && after.value === '') throw badQuery(input, `${where} has nothing after it`);
  for (const t of [before, after])
    if (!isOperand(t)) throw badQuery(input, `${where} can join only words and phrases, not "${t.value}"`);
}

const alternative = (t: QueryToken): Alternative =>
  t.kind === 'phrase' ? { phrase: t.value } : { word: t.value };

/**
 * Parse search syntax. Anything that is not exactly an operator is a plain term: "-" alone or
 * inside a word is a literal, a quote inside a word is a literal. An unclosed quote, an OR without
 * a word or phrase on each side, and a lone "+" are bad_input errors naming where they are.
 */
export function parseQuery(input: string): ParsedQuery {
  const parsed: ParsedQuery = {
    text: '',
    terms: [],
    phrases: [],
    tags: [],
    categories: [],
    exclude: [],
    required: [],
    anyOf: [],
  };
  const text: string[] = [];
  const tokens = scanQuery(input);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (isOr(t) || isOr(tokens[i + 1])) {
      // A group: this operand, then each "OR operand" after it.
      if (isOr(t)) checkOr(input, tokens, i); // an OR with nothing before it
      const group = [t];
      for (; isOr(tokens[i + 1]); i += 2) {
        checkOr(input, tokens, i + 1);
        group.push(tokens[i + 2]!);
      }
      parsed.anyOf.push(group.map(alternative));
      text.push(...group.map((g) => g.value));
      continue;
    }
    if (t.kind === 'phrase') {
      if (t.value !== '') {
        parsed.phrases.push(t.value);
        text.push(t.value);
      }
      continue;
    }
    readWord(input, t, parsed, text);
  }
  parsed.text = text.join(' ');
  return parsed;
}

function readWord(input: string, t: QueryToken, parsed: ParsedQuery, text: string[]): void {
  const w = t.value;
  const field = readField(w);
  if (field?.field === 'server') parsed.server = field.value;
  else if (field?.field === 'tag') parsed.tags.push(field.value);
  else if (field?.field === 'category') parsed.categories.push(field.value);
  else if (signed(w, '-', false)) parsed.exclude.push(w.slice(1));
  else if (w === '+') throw badQuery(input, `"+" at character ${t.at} has no word after it`);
  else if (signed(w, '+', true)) {
    parsed.required.push(w.slice(1));
    text.push(w.slice(1));
  } else {
    parsed.terms.push(w);
    text.push(w);
  }
}

/** The search call a parsed query stands for: its text, and its filters merged into `base`. */
export function searchRequest(
  parsed: ParsedQuery,
  base: SearchOptions = {},
): { query: string; options: SearchOptions } {
  const options: SearchOptions = { ...base };
  if (parsed.server !== undefined) options.server = parsed.server;
  if (parsed.phrases.length) options.phrases = [...(base.phrases ?? []), ...parsed.phrases];
  if (parsed.exclude.length) options.exclude = [...(base.exclude ?? []), ...parsed.exclude];
  if (parsed.tags.length) options.tags = [...(base.tags ?? []), ...parsed.tags];
  if (parsed.categories.length) options.categories = [...(base.categories ?? []), ...parsed.categories];
  if (parsed.required.length) options.require = [...(base.require ?? []), ...parsed.required];
  if (parsed.anyOf.length) options.anyOf = [...(base.anyOf ?? []), ...parsed.anyOf];
  return { query: parsed.text, options };
}
