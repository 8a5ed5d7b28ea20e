// A BPE rank table held in three typed arrays instead of gpt-tokenizer's ~200k strings and Map
// entries (issue 28 item 5: loading o200k_base that way cost 45-50 MiB of RSS and 400-500 ms).
// The ranks are read at run time from the installed package's bpeRanks/*.js, whose text is a
// list of JS string literals and byte arrays: a token's rank is its index.
import { readFileSync } from 'node:fs';

/** Token byte sequences and their ranks, with an open-addressing hash from bytes to rank. */
export interface RankTable {
  /** Every token's bytes, back to back. */
  readonly bytes: Uint8Array;
  /** Where token `i`'s bytes start in `bytes`; token `i` ends at `starts[i + 1]`. */
  readonly starts: Uint32Array;
  /** Hash slots holding a token index + 1, 0 when empty; the length is a power of two. */
  readonly slots: Int32Array;
  /** Tokens the table holds (gpt-tokenizer's ranks 0..size-1). */
  readonly size: number;
}

const NOT_FOUND = -1;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** FNV-1a over `bytes[from, to)`. */
export function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** The rank of `key[from, to)`, or -1 when it is no token. */
export function lookupRank(table: RankTable, key: Uint8Array, from: number, to: number): number {
  const { bytes, starts, slots } = table;
  const mask = slots.length - 1;
  const length = to - from;
  for (let slot = hashBytes(key, from, to) & mask; ; slot = (slot + 1) & mask) {
    const entry = slots[slot]!;
    if (entry === 0) return NOT_FOUND;
    const rank = entry - 1;
    const start = starts[rank]!;
    if (starts[rank + 1]! - start !== length) continue;
    let i = 0;
    while (i < length && bytes[start + i] === key[from + i]) i++;
    if (i === length) return rank;
  }
}

/** Reads and indexes a gpt-tokenizer rank file (`esm/bpeRanks/<encoding>.js`). */
export function readRankTable(path: string): RankTable {
  const source = readFileSync(path);
  const parsed = parseRankSource(source, path);
  return indexRanks(parsed.bytes, parsed.starts, parsed.hashable);
}

interface ParsedRanks {
  bytes: Uint8Array;
  starts: Uint32Array;
  /** Per token: may bytes find it? (see `indexRanks`) */
  hashable: Uint8Array;
}

// The file is `const c0 = [ ... ];` chunks then `const bpe = c0.concat(c1, ...)`. A format change
// in a gpt-tokenizer update must fail loudly here, not count wrong.
function parseRankSource(source: Uint8Array, path: string): ParsedRanks {
  const text = new TextDecoder().decode(source.subarray(Math.max(0, source.length - 400)));
  const concat = /const bpe = (c\d+)(?:\.concat\(([^)]*)\))?;/.exec(text);
  const order = concat ? [concat[1]!, ...(concat[2] ?? '').split(',').map((s) => s.trim())] : [];
  if (!order.every((name, i) => name === `c${i}`)) {
    throw new Error(`unexpected rank file format in ${path}: no "const bpe = c0.concat(c1, ...)"`);
  }
  const reader = new RankReader(source, path);
  for (let chunk = 0; chunk < order.length; chunk++) reader.readChunk(`const c${chunk} = [`);
  return reader.result();
}

// Both lookups gpt-tokenizer makes find a token by its bytes only when it is a string literal
// (valid UTF-8) or a byte array that is not valid UTF-8 (BytePairEncodingCore.getBpeRankFromBytes):
// a byte array that happens to be valid UTF-8 is unreachable there, so it is here too.
function indexRanks(bytes: Uint8Array, starts: Uint32Array, hashable: Uint8Array): RankTable {
  const size = starts.length - 1;
  let capacity = 1;
  while (capacity * 0.8 < size) capacity *= 2;
  const table: RankTable = { bytes, starts, slots: new Int32Array(capacity), size };
  const mask = capacity - 1;
  for (let rank = 0; rank < size; rank++) {
    if (!hashable[rank]) continue;
    const from = starts[rank]!;
    const to = starts[rank + 1]!;
    let slot = hashBytes(bytes, from, to) & mask;
    // A repeated key keeps its last rank, as gpt-tokenizer's Map.set does.
    while (table.slots[slot] !== 0 && !sameToken(table, table.slots[slot]! - 1, rank)) {
      slot = (slot + 1) & mask;
    }
    table.slots[slot] = rank + 1;
  }
  return table;
}

function sameToken({ bytes, starts }: RankTable, a: number, b: number): boolean {
  const length = starts[a + 1]! - starts[a]!;
  if (starts[b + 1]! - starts[b]! !== length) return false;
  for (let i = 0; i < length; i++) if (bytes[starts[a]! + i] !== bytes[starts[b]! + i]) return false;
  return true;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x5b;
const CLOSE = 0x5d;

/** Reads the literals of the rank file's chunks into one byte buffer. */
class RankReader {
  private pos = 0;
  private out: Uint8Array;
  private used = 0;
  // Typed, not number[]: 200k-element arrays grown on the JS heap would swell it for good.
  private starts: Uint32Array;
  private hashable: Uint8Array;
  private tokens = 0;

  constructor(
    private readonly src: Uint8Array,
    private readonly path: string,
  ) {
    // The bytes are written over the source as it is read: every literal's bytes are shorter
    // than its text, so writing never overtakes reading. No second 2 MiB buffer is left for the
    // GC, which an idle server may not run for a long while (issue 28 item 5 measures RSS).
    this.out = src;
    this.starts = new Uint32Array(1 << 16);
    this.hashable = new Uint8Array(1 << 16);
  }

  readChunk(header: string): void {
    const at = Buffer.from(this.src.buffer, this.src.byteOffset, this.src.length).indexOf(header, this.pos);
    if (at < 0) this.fail(`no "${header}"`);
    this.pos = at + header.length;
    for (;;) {
      const c = this.next();
      if (c === CLOSE) return;
      if (c === QUOTE) this.readString();
      else if (c === OPEN) this.readByteArray();
      else if (c !== 0x2c && !isSpace(c)) this.fail(`unexpected "${String.fromCharCode(c)}"`);
    }
  }

  result(): ParsedRanks {
    return {
      bytes: this.out.subarray(0, this.used),
      starts: this.starts.subarray(0, this.tokens + 1),
      hashable: this.hashable.subarray(0, this.tokens),
    };
  }

  private next(): number {
    if (this.pos >= this.src.length) this.fail('unexpected end');
    return this.src[this.pos++]!;
  }

  private endToken(hashable: boolean): void {
    if (this.tokens + 1 >= this.starts.length) {
      const starts = new Uint32Array(this.starts.length * 2);
      starts.set(this.starts);
      this.starts = starts;
      const hashable = new Uint8Array(starts.length);
      hashable.set(this.hashable);
      this.hashable = hashable;
    }
    this.hashable[this.tokens++] = hashable ? 1 : 0;
    this.starts[this.tokens] = this.used;
  }

  private readByteArray(): void {
    const from = this.used;
    let value = -1;
    for (;;) {
      const c = this.next();
      if (c >= 0x30 && c <= 0x39) value = (value < 0 ? 0 : value * 10) + c - 0x30;
      else if (c === 0x2c || c === CLOSE) {
        if (value > 255) this.fail(`byte ${value} out of range`);
        if (value >= 0) this.out[this.used++] = value;
        value = -1;
        if (c === CLOSE) break;
      } else if (!isSpace(c)) this.fail(`unexpected "${String.fromCharCode(c)}" in a byte array`);
    }
    this.endToken(!isValidUtf8(this.out.subarray(from, this.used)));
  }

  private readString(): void {
    for (;;) {
      const c = this.next();
      if (c === QUOTE) break;
      if (c === BACKSLASH) this.readEscape();
      // The file is UTF-8, so a raw character's bytes are the token's bytes.
      else this.out[this.used++] = c;
    }
    this.endToken(true);
  }

  private readEscape(): void {
    const c = this.next();
    const simple = SIMPLE_ESCAPES[String.fromCharCode(c)];
    if (simple !== undefined) {
      // "\0" followed by a digit would be a legacy octal escape; the files have none.
      if (c === 0x30 && isDigit(this.src[this.pos] ?? 0)) this.fail('octal escape');
      this.putCodePoint(simple);
    } else if (c === 0x78 /* x */) this.putCodePoint(this.readHex(2));
    else if (c === 0x75 /* u */) this.readUnicodeEscape();
    else if (c === 0x0a || c === 0x0d) this.fail('line continuation');
    else this.out[this.used++] = c; // \" \\ \' and any other escaped ASCII stand for themselves
  }

  private readUnicodeEscape(): void {
    let code: number;
    if (this.src[this.pos] === 0x7b /* { */) {
      const close = this.src.indexOf(0x7d, this.pos);
      code = parseInt(Buffer.from(this.src.subarray(this.pos + 1, close)).toString('latin1'), 16);
      this.pos = close + 1;
    } else code = this.readHex(4);
    if (
      code >= 0xd800 &&
      code <= 0xdbff &&
      this.src[this.pos] === BACKSLASH &&
      this.src[this.pos + 1] === 0x75
    ) {
      this.pos += 2;
      const low = this.readHex(4);
      if (low < 0xdc00 || low > 0xdfff) this.fail('lone surrogate escape');
      code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
    }
    // A lone surrogate would be a key no UTF-8 text can reach; refuse rather than guess.
    if (code >= 0xd800 && code <= 0xdfff) this.fail('lone surrogate escape');
    this.putCodePoint(code);
  }

  private readHex(digits: number): number {
    const hex = Buffer.from(this.src.subarray(this.pos, this.pos + digits)).toString('latin1');
    if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) this.fail(`bad escape "${hex}"`);
    this.pos += digits;
    return parseInt(hex, 16);
  }

  private putCodePoint(code: number): void {
    const out = this.out;
    if (code < 0x80) out[this.used++] = code;
    else if (code < 0x800) {
      out[this.used++] = 0xc0 | (code >> 6);
      out[this.used++] = 0x80 | (code & 0x3f);
    } else if (code < 0x10000) {
      out[this.used++] = 0xe0 | (code >> 12);
      out[this.used++] = 0x80 | ((code >> 6) & 0x3f);
      out[this.used++] = 0x80 | (code & 0x3f);
    } else {
      out[this.used++] = 0xf0 | (code >> 18);
      out[this.used++] = 0x80 | ((code >> 12) & 0x3f);
      out[this.used++] = 0x80 | ((code >> 6) & 0x3f);
      out[this.used++] = 0x80 | (code & 0x3f);
    }
  }

  private fail(what: string): never {
    throw new Error(`unexpected rank file format in ${this.path} at byte ${this.pos}: ${what}`);
  }
}

const SIMPLE_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, v: 11, '0': 0 };

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Whether `bytes` are well-formed UTF-8 (no overlongs, surrogates or truncated sequences). */
export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
