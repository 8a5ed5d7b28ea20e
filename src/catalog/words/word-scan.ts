// search/text/tokenize.ts's tokens as word ids (word-table.ts), in one pass over the text's characters
// and without its regular expressions for the text it meets most: ASCII, CJK ideographs and kana,
// and punctuation. On the general path the 7% of the big bench catalog's descriptions with other
// characters than ASCII (mostly Chinese, with full-width commas) took as long to tokenize as the
// other 93%. Any other character sends its whitespace-separated piece to `tokenize` itself, as
// tokenize does with every non-ASCII piece, so the tokens are always tokenize's (docs/menu.md,
// Speed; word-scan.test.ts).
import { tokenize } from '../../search/index.js';
import { intern, internRange } from './word-table.js';

/** Character classes: Latin word characters as search/text/tokenize.ts's ASCII scanner splits them, and the rest. */
const OTHER = 0; // ends a word: punctuation, and any character that is not a letter, digit or mark even after NFKC
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const CJK = 4; // a character tokenize's CJK runs hold, which NFKC leaves alone and nothing composes with
const SPACE = 5; // \s: ends a word and a piece
const SLOW = 6; // anything else: its piece goes to tokenize

const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c >= 97 && c <= 122) ASCII_CLASS[c] = LOWER;
  else if (c >= 65 && c <= 90) ASCII_CLASS[c] = UPPER;
  else if (c >= 48 && c <= 57) ASCII_CLASS[c] = DIGIT;
  else if (/\s/.test(String.fromCharCode(c))) ASCII_CLASS[c] = SPACE;
}

const CJK_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]$/u;
const WORD_OR_MARK = /[\p{L}\p{N}\p{M}]/u;

/**
 * The CJK characters taken on the fast path: unified ideographs, kana, ー and Hangul syllables.
 * Not Hangul jamo (they compose into syllables under NFKC) nor compatibility ideographs (NFKC maps them).
 */
function isPlainCjk(c: number): boolean {
  return (
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3041 && c <= 0x3096) ||
    (c >= 0x30a1 && c <= 0x30fa) ||
    c === 0x30fc ||
    (c >= 0xac00 && c <= 0xd7a3)
  );
}

/** The class of a non-ASCII UTF-16 code unit. */
function classify(c: number): number {
  if (c >= 0xd800 && c <= 0xdfff) return SLOW;
  const s = String.fromCharCode(c);
  if (/\s/.test(s)) return SPACE;
  const normal = s.normalize('NFKC');
  if (CJK_CHAR.test(s)) return isPlainCjk(c) && normal === s ? CJK : SLOW;
  // NFKC turns it into punctuation or symbols only (，-> ,): it splits words exactly as they do.
  return normal.length > 0 && !WORD_OR_MARK.test(normal) ? OTHER : SLOW;
}

/** Class + 1 of each non-ASCII code unit met so far, 0 for not yet classified. */
const WIDE_CLASS = new Uint8Array(65536);

function classOf(c: number): number {
  if (c < 128) return ASCII_CLASS[c]!;
  let k = WIDE_CLASS[c]!;
  if (k === 0) WIDE_CLASS[c] = k = classify(c) + 1;
  return k - 1;
}

// The same tests as search/text/tokenize.ts: a text is scanned whole when it is ASCII, else piece by
// whitespace-separated piece.
// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL on purpose
const NON_ASCII = /[^\x00-\x7f]/;
const WHITESPACE = /\s+/;

/**
 * Appends the ids of `tokenize(text)`'s tokens to `out`. ASCII text (93% of descriptions) has a
 * loop and a word lookup of its own: V8 compiles a function for the strings it has met, and one
 * loop for both kinds scanned the big catalog's ASCII descriptions 2.5 times slower (27.5 against
 * 11.2 ms) once it had met the other kind.
 */
export function addWords(text: string, out: number[]): void {
  if (NON_ASCII.test(text)) addPieces(text, out);
  else addAscii(text, out);
}

/** `addWords` for a text with other characters than ASCII: piece by whitespace-separated piece. */
function addPieces(text: string, out: number[]): void {
  for (const piece of text.split(WHITESPACE)) {
    const before = out.length;
    if (addWide(piece, out)) continue;
    out.length = before;
    for (const token of tokenize(piece)) out.push(intern(token));
  }
}

/**
 * Whether a Latin word splits before position i, as search/text/tokenize.ts's ASCII scanner splits
 * it: lower or digit before upper, letter before digit, digit before letter, and an upper before
 * an upper + lower pair (HTMLParser).
 */
function splitsBefore(text: string, i: number, cls: number, prev: number): boolean {
  if ((cls === DIGIT) !== (prev === DIGIT)) return true;
  if (cls !== UPPER) return false;
  if (prev !== UPPER) return true;
  const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
  return next >= 97 && next <= 122;
}

/**
 * The ids of an ASCII text's words (search/text/tokenize.ts's ASCII scanner, word for word), each
 * word's hash computed on the way (word-table.ts's `hashWord`).
 */
function addAscii(text: string, out: number[]): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const first = text.charCodeAt(i);
    let prev = ASCII_CLASS[first]!;
    if (prev === OTHER || prev === SPACE) {
      i++;
      continue;
    }
    let start = i; // the current word's first character
    let hash = first | 0x20; // a letter's lower case; digits have the bit already
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      const cls = ASCII_CLASS[c]!;
      if (cls === LOWER && prev !== DIGIT) {
        hash = (Math.imul(hash, 31) + c) | 0; // the common case: a word goes on in lower case
      } else if (cls === OTHER || cls === SPACE) {
        break;
      } else if (splitsBefore(text, i, cls, prev)) {
        out.push(internRange(text, start, i, hash));
        start = i;
        hash = c | 0x20;
      } else {
        hash = (Math.imul(hash, 31) + (c | 0x20)) | 0;
      }
      prev = cls;
    }
    out.push(internRange(text, start, i, hash));
  }
}

/**
 * The ids of a piece (no whitespace) with other characters than ASCII: Latin words as in
 * `addAscii`, and a run of CJK characters gives its overlapping bigrams (one character:
 * itself). False, having added some, at the first character of another kind.
 */
function addWide(piece: string, out: number[]): boolean {
  let start = -1;
  for (let i = 0; i <= piece.length; i++) {
    const cls = i < piece.length ? classOf(piece.charCodeAt(i)) : OTHER;
    if (cls === LOWER || cls === UPPER || cls === DIGIT) {
      if (start < 0) start = i;
      else if (splitsBefore(piece, i, cls, classOf(piece.charCodeAt(i - 1)))) {
        out.push(intern(piece.slice(start, i).toLowerCase()));
        start = i;
      }
      continue;
    }
    if (start >= 0) out.push(intern(piece.slice(start, i).toLowerCase()));
    start = -1;
    if (cls === CJK) {
      let end = i + 1;
      while (end < piece.length && classOf(piece.charCodeAt(end)) === CJK) end++;
      if (end - i === 1) out.push(intern(piece.slice(i, end)));
      else for (let k = i; k + 1 < end; k++) out.push(intern(piece.slice(k, k + 2)));
      i = end - 1;
    } else if (cls !== OTHER) return false;
  }
  return true;
}
