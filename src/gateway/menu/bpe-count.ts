// Counts BPE tokens over a compact rank table, step for step as gpt-tokenizer 4's countNative
// does with special tokens read as plain text (BytePairEncodingCore.js): split with the
// encoding's own regex, a piece that is one token counts 1, else merge its UTF-8 bytes by lowest
// rank, leftmost first. Only the count is kept, never the tokens.
import { isValidUtf8, lookupRank, type RankTable } from './bpe-ranks.js';

const NONE = 0x7fffffff;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const encoder = new TextEncoder();

/** Counts tokens of one encoding; `limit` stops counting once the count passes it. */
export class BpeCounter {
  private piece = new Uint8Array(1024);
  private starts = new Int32Array(1025);
  private ranks = new Int32Array(1025);
  /** The split regex anchored where the last piece ended (`y`), and unanchored. */
  private readonly sticky: RegExp;
  private readonly search: RegExp;

  constructor(
    private readonly table: RankTable,
    split: RegExp,
  ) {
    this.sticky = new RegExp(split.source, `${split.flags.replace('g', '')}y`);
    this.search = new RegExp(split.source, split.flags.includes('g') ? split.flags : `${split.flags}g`);
  }

  /** Tokens in `text`, or `Infinity` as soon as they pass `limit`. */
  count(text: string, limit = Infinity): number {
    // gpt-tokenizer looks a whole piece up as a string, which a piece holding a lone surrogate
    // never matches; its bytes (U+FFFD in its place) are then merged. Checked once per text.
    const wellFormed = !LONE_SURROGATE.test(text);
    // The pieces matchAll gives, without its match arrays: the regex's alternatives cover every
    // character, so each piece starts where the last one ended and `test` finds its end. The
    // garbage of 1.3M match arrays for the 7k-tool listing grew the heap by some 20 MiB for good.
    const { sticky, search } = this;
    let total = 0;
    let at = 0;
    while (at < text.length) {
      sticky.lastIndex = at;
      let start = at;
      let end: number;
      if (sticky.test(text)) end = sticky.lastIndex;
      else {
        // No piece starts here (not so for o200k or cl100k): skip to the next, as matchAll does.
        search.lastIndex = at;
        const match = search.exec(text);
        if (!match) break;
        start = match.index;
        end = start + match[0].length;
      }
      if (end === start) {
        // An empty piece counts 0; matchAll steps over one code point.
        at = end + ((text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1);
        continue;
      }
      total += this.countPiece(text, start, end, wellFormed);
      if (total > limit) return Infinity;
      at = end;
    }
    return total;
  }

  private countPiece(text: string, start: number, end: number, wellFormed: boolean): number {
    if (end - start === 1 && text.charCodeAt(start) < 0x80) return 1;
    const piece = text.slice(start, end);
    if (this.piece.length < piece.length * 3) this.grow(piece.length * 3);
    const { written } = encoder.encodeInto(piece, this.piece);
    const wholeLookup = wellFormed || !LONE_SURROGATE.test(piece);
    if (wholeLookup && lookupRank(this.table, this.piece, 0, written) >= 0) return 1;
    return this.merge(written);
  }

  // tiktoken's byte_pair_merge, as gpt-tokenizer's bytePairMerge runs it: O(n^2) in the piece's
  // bytes, like theirs; pieces are words, numbers of up to 3 digits or runs of punctuation/space.
  private merge(length: number): number {
    const { starts, ranks } = this;
    for (let i = 0; i <= length; i++) {
      starts[i] = i;
      ranks[i] = i < length - 1 ? this.rankOf(i, i + 2) : NONE;
    }
    let parts = length + 1;
    while (parts > 1) {
      let lowest = NONE;
      let at = -1;
      for (let i = 0; i < parts - 1; i++) {
        if (ranks[i]! < lowest) {
          lowest = ranks[i]!;
          at = i;
        }
      }
      if (at < 0) break;
      starts.copyWithin(at + 1, at + 2, parts);
      ranks.copyWithin(at, at + 1, parts);
      parts--;
      ranks[at] = this.pairRank(at, parts);
      if (at > 0) ranks[at - 1] = this.pairRank(at - 1, parts);
    }
    return parts - 1;
  }

  private pairRank(i: number, parts: number): number {
    return i + 2 < parts ? this.rankOf(this.starts[i]!, this.starts[i + 2]!) : NONE;
  }

  private rankOf(from: number, to: number): number {
    const piece = this.piece;
    // gpt-tokenizer finds a valid UTF-8 key by decoding it with a TextDecoder, which drops a
    // leading BOM: EF BB BF + X gets X's rank, and EF BB BF alone none (getBpeRankFromBytes).
    if (piece[from] === 0xef && piece[from + 1] === 0xbb && piece[from + 2] === 0xbf && to - from >= 3) {
      if (isValidUtf8(piece.subarray(from, to))) from += 3;
    }
    const rank = lookupRank(this.table, piece, from, to);
    return rank < 0 ? NONE : rank;
  }

  private grow(bytes: number): void {
    this.piece = new Uint8Array(bytes);
    this.starts = new Int32Array(bytes + 1);
    this.ranks = new Int32Array(bytes + 1);
  }
}
