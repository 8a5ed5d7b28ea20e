// What text of a tool or query an English-only sentence embedder should see (or none at all).
import { tokenize } from '../text/tokenize.js';
import type { SearchDoc } from '../query/types.js';

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const LETTER = /\p{L}/gu;

/**
 * Characters of a description's first sentence the embedder sees. The lead sentence is the
 * summary; argument lists and caveats after it pull the vector away (measured: 400 chars of the
 * whole description did worse than the first sentence cut at 200).
 */
export const MAX_EMBED_CHARS = 200;

/** The first sentence of `text` (up to ". ", "! ", "? " or the end), cut to MAX_EMBED_CHARS. */
export function firstSentence(text: string): string {
  const match = /^[\s\S]*?[.!?](\s|$)/.exec(text);
  return (match ? match[0] : text).slice(0, MAX_EMBED_CHARS).trim();
}

/** Share of letters in CJK scripts, 0..1. */
export function cjkShare(text: string): number {
  const letters = text.match(LETTER)?.length ?? 0;
  return letters === 0 ? 0 : (text.match(CJK_CHAR)?.length ?? 0) / letters;
}

/**
 * Text with its CJK characters removed, or '' when too little else is left. USE-Lite maps every
 * CJK text to one shared vector (MCP-NOTES), so CJK must never reach it.
 */
export function latinPart(text: string): string {
  const rest = text.replace(CJK_CHAR, ' ').replace(/\s+/g, ' ').trim();
  return (rest.match(/\p{L}{2,}/gu)?.length ?? 0) >= 3 ? rest : '';
}

/** The text embedded for a tool: its title or name words, then the Latin part of its first sentence. */
export function toolEmbeddingText(doc: SearchDoc): string {
  const name = doc.title?.trim() || tokenize(doc.name).join(' ');
  const description = latinPart(firstSentence(doc.description ?? ''));
  return description ? `${name}: ${description}` : name;
}

/**
 * The text embedded for a tool, or undefined when it is mostly CJK (a CJK name with a CJK
 * description): such a tool is left to the lexical side, like a mostly-CJK query.
 */
export function embeddableToolText(doc: SearchDoc): string | undefined {
  const text = toolEmbeddingText(doc);
  return text.trim() !== '' && cjkShare(text) < 0.5 ? text : undefined;
}

/** The text embedded for a query, or undefined when it is mostly CJK (left to the lexical side). */
export function queryEmbeddingText(query: string): string | undefined {
  const text = latinPart(query);
  if (text !== '') return text;
  const words = query.trim();
  return words !== '' && cjkShare(words) < 0.5 ? words : undefined;
}
