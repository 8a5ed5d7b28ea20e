// Typo tolerance: a query word the catalog never uses is matched to close words it does use.

/** Words shorter than this are never corrected (too many close neighbours). */
export const TYPO_MIN_LENGTH = 4;
/** Words at least this long may be two edits away; shorter ones one edit. */
export const TYPO_TWO_EDITS_LENGTH = 8;
/** At most this many corrections per unknown word, the most frequent first. */
export const TYPO_MAX_CANDIDATES = 2;

/** Three rows of the distance table, reused by every call (the corrector runs it for each nearby word). */
let rows = [new Int32Array(32), new Int32Array(32), new Int32Array(32)] as const;

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), capped at `max + 1`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (rows[0].length <= n) rows = [new Int32Array(2 * n), new Int32Array(2 * n), new Int32Array(2 * n)];
  let [prev2, prev, cur] = rows;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const ai = a.charCodeAt(i - 1);
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = ai === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    const oldest = prev2;
    prev2 = prev;
    prev = cur;
    cur = oldest;
  }
  return Math.min(prev[n]!, max + 1);
}

/** A corrector over the surface words of a catalog. */
export interface TypoCorrector {
  /** Known words close to `word` (which the catalog does not contain), best first. */
  correct(word: string): string[];
}

const LATIN_WORD = /^[a-z]+$/;

/**
 * Build a corrector. `frequency` maps each surface word of the catalog to how many tools use it.
 * Candidates share the first letter (typos rarely hit it) and are at most 1 or 2 edits away.
 */
export function buildTypoCorrector(frequency: ReadonlyMap<string, number>): TypoCorrector {
  // Bucketed by first letter and length, so a lookup reads only words that could be close.
  const buckets = new Map<string, string[]>();
  for (const word of frequency.keys()) {
    if (word.length < TYPO_MIN_LENGTH - 1 || !LATIN_WORD.test(word)) continue;
    const key = `${word[0]!}${word.length}`;
    const list = buckets.get(key) ?? [];
    list.push(word);
    buckets.set(key, list);
  }
  return {
    correct(word) {
      if (word.length < TYPO_MIN_LENGTH || !LATIN_WORD.test(word) || frequency.has(word)) return [];
      const max = word.length >= TYPO_TWO_EDITS_LENGTH ? 2 : 1;
      const found: { w: string; d: number; f: number }[] = [];
      for (let len = word.length - max; len <= word.length + max; len++) {
        for (const w of buckets.get(`${word[0]!}${len}`) ?? []) {
          const d = editDistance(word, w, max);
          if (d <= max) found.push({ w, d, f: frequency.get(w) ?? 0 });
        }
      }
      found.sort((a, b) => a.d - b.d || b.f - a.f || (a.w < b.w ? -1 : 1));
      return found.slice(0, TYPO_MAX_CANDIDATES).map((c) => c.w);
    },
  };
}
