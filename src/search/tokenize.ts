// Tokeniser shared by indexing and querying: identifiers split into words, CJK into bigrams.

// Scripts written without spaces: indexed as overlapping character bigrams (a run of one
// character stays a unigram), the usual dictionary-free approach (Lucene's CJKBigramFilter).
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+/gu;
const CJK_ONLY = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+$/u;
const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;

/** Split camelCase, PascalCase, acronyms and letter/digit boundaries with spaces. */
function splitIdentifiers(text: string): string {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2');
}

function pushBigrams(run: string, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(chars[0]!);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

/** Lower-case word tokens of `text`: snake/camel/kebab/dot/digit splits, CJK bigrams, accents folded. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  if (!text) return out;
  const normal = text.normalize('NFKC').replace(CJK_RUN, (run) => ` ${run} `);
  for (const raw of splitIdentifiers(normal).match(WORD) ?? []) {
    if (CJK_ONLY.test(raw)) pushBigrams(raw, out);
    else out.push(raw.normalize('NFD').replace(MARKS, '').toLowerCase());
  }
  return out;
}
