// Japanese word boundaries from a dictionary alone (issue 29): no segmenter package, no model.

/** Longest word looked up, in characters: longer entries are set phrases, not tool words. */
export const JAPANESE_MAX_LENGTH = 10;
/**
 * Cost of a character that starts no word, in words (>= 1): a segmentation covers as much of the
 * run with dictionary words as it can before it minds how many words it uses.
 */
const UNKNOWN_COST = 2;

/** What a written form means: grammar (no gloss) or content words. */
export interface JapaneseWord {
  grammatical: boolean;
  gloss: string;
}

/** The words of a Japanese run, or the characters that start none (`word` undefined). */
export interface Segment {
  surface: string;
  word?: JapaneseWord;
}

/**
 * Segment a run of kanji and kana into dictionary words: the segmentation with the fewest words
 * (a character that starts no word counts UNKNOWN_COST), ties to the longest first word, words of
 * up to JAPANESE_MAX_LENGTH characters. Plain longest match from the left reads ...てください as
 * てく + だ + さ + い; the fewest words read it as て + ください.
 */
export function segmentJapanese(
  run: string,
  lookup: (surface: string) => JapaneseWord | undefined,
): Segment[] {
  const chars = Array.from(run);
  const n = chars.length;
  // cost[i] and first[i]: the cheapest segmentation of chars[i..] and its first segment.
  const cost = new Array<number>(n + 1).fill(0);
  const first = new Array<Segment>(n);
  for (let i = n - 1; i >= 0; i--) {
    first[i] = { surface: chars[i]! };
    cost[i] = UNKNOWN_COST + cost[i + 1]!;
    for (let len = Math.min(JAPANESE_MAX_LENGTH, n - i); len >= 1; len--) {
      const surface = chars.slice(i, i + len).join('');
      const word = lookup(surface);
      if (word && 1 + cost[i + len]! < cost[i]!) {
        cost[i] = 1 + cost[i + len]!;
        first[i] = { surface, word };
      }
    }
  }
  const out: Segment[] = [];
  for (let i = 0; i < n; i += Array.from(first[i]!.surface).length) out.push(first[i]!);
  return out;
}

/**
 * Verb stems to the dictionary forms they may come from, with the EDICT verb class that allows
 * each: the -masu stem (書き → 書く, v5k) and the -te/-ta stem (書い → 書く, 読ん → 読む, 作っ → 作る),
 * and any stem + る for ichidan verbs (調べ → 調べる, v1). The endings after them (ます, て, たい)
 * are particles and auxiliaries of their own.
 */
const STEMS: Record<string, [string, string][]> = {
  き: [['く', 'v5k']],
  ぎ: [['ぐ', 'v5g']],
  し: [['す', 'v5s']],
  ち: [['つ', 'v5t']],
  に: [['ぬ', 'v5n']],
  び: [['ぶ', 'v5b']],
  み: [['む', 'v5m']],
  り: [['る', 'v5r']],
  い: [
    ['く', 'v5k'],
    ['ぐ', 'v5g'],
    ['う', 'v5u'],
  ],
  っ: [
    ['う', 'v5u'],
    ['つ', 'v5t'],
    ['る', 'v5r'],
    ['く', 'v5k-s'],
  ],
  ん: [
    ['む', 'v5m'],
    ['ぶ', 'v5b'],
    ['ぬ', 'v5n'],
  ],
};

/** The dictionary forms a verb stem written with kanji may come from, each with its verb class. */
export function dictionaryForms(stem: string): { form: string; verbClass: string }[] {
  if (!/\p{Script=Han}/u.test(stem)) return [];
  const last = stem.slice(-1);
  const forms = (STEMS[last] ?? []).map(([end, verbClass]) => ({ form: stem.slice(0, -1) + end, verbClass }));
  return [...forms, { form: `${stem}る`, verbClass: 'v1' }];
}
