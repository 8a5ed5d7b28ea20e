// Tokeniser shared by indexing and querying: identifiers split into words, CJK into bigrams.

// Scripts written without spaces: indexed as overlapping character bigrams (a run of one
// character stays a unigram), the usual dictionary-free approach (Lucene's CJKBigramFilter).
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+/gu;
const CJK_ONLY = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+$/u;
const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;
// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL on purpose
const NON_ASCII = /[^\x00-\x7f]/;
const WHITESPACE = /\s+/;

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

/** Character classes of the ASCII scanner. */
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c >= 97 && c <= 122) ASCII_CLASS[c] = LOWER;
  else if (c >= 65 && c <= 90) ASCII_CLASS[c] = UPPER;
  else if (c >= 48 && c <= 57) ASCII_CLASS[c] = DIGIT;
}

/**
 * The same tokens as the general path for pure ASCII text, in one pass and without regular
 * expressions (ASCII is unchanged by NFKC and has no marks or CJK). A word ends at a non
 * alphanumeric character and at the boundaries `splitIdentifiers` marks: lower or digit before
 * upper, an upper before an upper + lower pair, letter before digit, digit before letter.
 */
function tokenizeAscii(text: string, out: string[]): void {
  const lower = text.toLowerCase(); // same length: ASCII only
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const cls = i < text.length ? ASCII_CLASS[text.charCodeAt(i)]! : OTHER;
    if (cls === OTHER) {
      if (start >= 0) out.push(lower.slice(start, i));
      start = -1;
      continue;
    }
    if (start < 0) {
      start = i;
      continue;
    }
    const prev = ASCII_CLASS[text.charCodeAt(i - 1)]!;
    const boundary =
      (cls === UPPER && prev !== UPPER) || // lower/digit -> upper
      (cls === DIGIT) !== (prev === DIGIT) || // letter <-> digit
      (cls === UPPER && prev === UPPER && ASCII_CLASS[text.charCodeAt(i + 1)] === LOWER); // HTMLParser
    if (boundary) {
      out.push(lower.slice(start, i));
      start = i;
    }
  }
}

/** Lower-case word tokens of `text`: snake/camel/kebab/dot/digit splits, CJK bigrams, accents folded. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  if (!text) return out;
  if (!NON_ASCII.test(text)) {
    tokenizeAscii(text, out);
    return out;
  }
  // Whitespace always ends a word on both paths, so only the pieces with non-ASCII need the slow one.
  for (const piece of text.split(WHITESPACE)) {
    if (!NON_ASCII.test(piece)) tokenizeAscii(piece, out);
    else for (const t of tokenizeUnicode(piece)) out.push(t);
  }
  return out;
}

/** The general (Unicode) path for any text; exported so tests can check the ASCII scanner against it. */
export function tokenizeUnicode(text: string): string[] {
  const out: string[] = [];
  if (!text) return out;
  const normal = text.normalize('NFKC').replace(CJK_RUN, (run) => ` ${run} `);
  for (const raw of splitIdentifiers(normal).match(WORD) ?? []) {
    if (CJK_ONLY.test(raw)) pushBigrams(raw, out);
    else out.push(raw.normalize('NFD').replace(MARKS, '').toLowerCase());
  }
  return out;
}
