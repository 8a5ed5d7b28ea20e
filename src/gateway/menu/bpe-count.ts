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

  constructor(
    private readonly table: RankTable,
    private readonly split: RegExp,
  ) {}

  /** Tokens in `text`, or `Infinity` as soon as they pass `limit`. */
  count(text: string, limit = Infinity): number {
    // gpt-tokenizer looks a whole piece up as a string, which a piece holding a lone surrogate
    // never matches; its bytes (U+FFFD in its place) are then merged. Checked once per text.
    const wellFormed = !LONE_SURROGATE.test(text);
    let total = 0;
    for (const [match] of text.matchAll(this.split)) {
      total += this.countPiece(match, wellFormed || !LONE_SURROGATE.test(match));
      if (total > limit) return Infinity;
    }
    return total;
  }

  private countPiece(piece: string, wholeLookup: boolean): number {
    if (piece.length === 1 && piece.charCodeAt(0) < 0x80) return 1;
    if (this.piece.length < piece.length * 3) this.grow(piece.length * 3);
    const { written } = encoder.encodeInto(piece, this.piece);
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
