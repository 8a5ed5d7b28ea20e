// Splitting a long task text into the separate needs it states, so each gets its own ranking.

// Sentence ends (Latin and CJK punctuation), line breaks, and sequencing words ("..., then ...").
const BOUNDARY =
  /(?<=[.!?;])\s+|[。！？；\n]+|\s*,?\s*\b(?:and then|then|after that|afterwards|finally|next)\b\s*,?\s*/giu;

/** Needs shorter than this many word characters are folded into the previous one. */
export const MIN_NEED_CHARS = 12;

/**
 * The needs of a task text, in order; one element when it states only one. A fragment too short to
 * stand alone ("Finally") joins its neighbour rather than becoming a query of its own.
 */
export function splitNeeds(text: string): string[] {
  const parts = text
    .split(BOUNDARY)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const needs: string[] = [];
  for (const part of parts) {
    const last = needs.length - 1;
    if (
      needs.length > 0 &&
      (part.replace(/\W/gu, '').length < MIN_NEED_CHARS ||
        needs[last]!.replace(/\W/gu, '').length < MIN_NEED_CHARS)
    ) {
      needs[last] = `${needs[last]!} ${part}`;
    } else {
      needs.push(part);
    }
  }
  return needs.length > 0 ? needs : [text];
}
