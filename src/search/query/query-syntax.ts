// The search syntax people type (CLI, web menu): phrases, field filters and exclusions.
import type { SearchOptions } from './types.js';

/** A parsed query; `text` is what the ranker sees (terms and phrases, in order). */
export interface ParsedQuery {
  text: string;
  /** Plain words, as typed (operators never hide in them: "AND" is just a word). */
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
}

// Only these prefixes are operators; "http://x", "note:" or "a:b" stay plain text.
const FIELDS = ['server', 'tag', 'category'] as const;
type Field = (typeof FIELDS)[number];
const TOKEN = /"([^"]*)"|(\S+)/g;

function readField(word: string): { field: Field; value: string } | undefined {
  const colon = word.indexOf(':');
  if (colon <= 0) return undefined;
  const field = word.slice(0, colon).toLowerCase();
  const value = word.slice(colon + 1);
  if (value === '' || !(FIELDS as readonly string[]).includes(field)) return undefined;
  return { field: field as Field, value };
}

/**
 * Parse search syntax. Anything that is not exactly an operator is a plain term, so plain text is
 * never misread: an unmatched quote is a literal, "-" alone or inside a word is a literal, and
 * there are no boolean keywords.
 */
export function parseQuery(input: string): ParsedQuery {
  const parsed: ParsedQuery = { text: '', terms: [], phrases: [], tags: [], categories: [], exclude: [] };
  const text: string[] = [];
  for (const match of input.matchAll(TOKEN)) {
    const [, phrase, word] = match;
    if (phrase !== undefined) {
      if (phrase.trim() !== '') {
        parsed.phrases.push(phrase.trim());
        text.push(phrase.trim());
      }
      continue;
    }
    const w = word!;
    const field = readField(w);
    if (field?.field === 'server') parsed.server = field.value;
    else if (field?.field === 'tag') parsed.tags.push(field.value);
    else if (field?.field === 'category') parsed.categories.push(field.value);
    else if (w.length > 1 && w.startsWith('-') && /\p{L}/u.test(w[1]!)) parsed.exclude.push(w.slice(1));
    else {
      parsed.terms.push(w);
      text.push(w);
    }
  }
  parsed.text = text.join(' ');
  return parsed;
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
  return { query: parsed.text, options };
}
