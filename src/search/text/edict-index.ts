// An index of an EDICT file (EUC-JP, one entry a line) by headword and reading, kept as bytes:
// the file is not decoded as a whole; a lookup encodes the word to EUC-JP and decodes only its lines.

/** Entries by headword or reading: the text of each line that has `word` as one of the two. */
export interface EdictIndex {
  /** The lines (decoded, without the newline) whose headword or reading is `word`, in file order. */
  lookup(word: string): string[];
  /** Every key, decoded, in file order (a key of several lines as often). */
  keys(): Iterable<string>;
}

const SPACE = 0x20;
const NEWLINE = 0x0a;
const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
/** Slots of the hash table: a power of two above twice the keys of EDICT (about 470,000). */
const SLOTS = 1 << 20;

let encoder: Map<string, number[]> | undefined;

/**
 * Characters to their EUC-JP bytes, read from the decoder itself (Node has no EUC-JP encoder):
 * every JIS X 0208 pair, JIS X 0212 triple (0x8F) and half-width katakana (0x8E) is decoded once.
 */
function eucJpEncoder(): Map<string, number[]> {
  if (encoder) return encoder;
  const codes: number[][] = [];
  for (let a = 0xa1; a <= 0xfe; a++) for (let b = 0xa1; b <= 0xfe; b++) codes.push([a, b], [0x8f, a, b]);
  for (let b = 0xa1; b <= 0xdf; b++) codes.push([0x8e, b]);
  const bytes = Buffer.from(codes.flatMap((c) => [...c, NEWLINE]));
  const chars = new TextDecoder('euc-jp').decode(bytes).split('\n');
  encoder = new Map();
  codes.forEach((code, i) => {
    const c = chars[i];
    if (c && c.length === 1 && c !== '\ufffd' && !encoder!.has(c)) encoder!.set(c, code);
  });
  return encoder;
}

/** `word` in EUC-JP; undefined if a character has no EUC-JP form (then no entry can have it). */
export function encodeEucJp(word: string): Uint8Array | undefined {
  const table = eucJpEncoder();
  const out: number[] = [];
  for (const c of word) {
    const code = c.charCodeAt(0) < 0x80 ? [c.charCodeAt(0)] : table.get(c);
    if (!code) return undefined;
    out.push(...code);
  }
  return Uint8Array.from(out);
}

/** FNV-1a over bytes `from` to `to` of `bytes`. */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/**
 * Index an EDICT file's bytes (`KANJI [KANA] /glosses/` or `KANA /glosses/` a line, after one header
 * line): an open hash table of key byte ranges, so a lookup decodes only the lines it finds.
 */
export function indexEdict(file: Buffer): EdictIndex {
  const slots = new Int32Array(SLOTS).fill(-1);
  const most = 2 * countLines(file); // a headword and a reading a line
  const keyStart = new Int32Array(most);
  const keyLength = new Uint16Array(most);
  const keyLine = new Int32Array(most);
  const keyNext = new Int32Array(most);
  let keys = 0;
  const add = (from: number, to: number, line: number): void => {
    const slot = hashBytes(file, from, to) & (SLOTS - 1);
    keyStart[keys] = from;
    keyLength[keys] = to - from;
    keyLine[keys] = line;
    keyNext[keys] = slots[slot]!;
    slots[slot] = keys++;
  };
  for (let line = file.indexOf(NEWLINE) + 1; line > 0 && line < file.length;) {
    let space = line;
    while (space < file.length && file[space] !== SPACE && file[space] !== NEWLINE) space++;
    add(line, space, line);
    if (file[space + 1] === OPEN) {
      const close = file.indexOf(CLOSE, space);
      if (close > 0) add(space + 2, close, line);
    }
    const end = file.indexOf(NEWLINE, space);
    line = end < 0 ? file.length : end + 1;
  }

  const decoder = new TextDecoder('euc-jp');
  const sameBytes = (key: number, word: Uint8Array): boolean => {
    if (keyLength[key] !== word.length) return false;
    for (let i = 0; i < word.length; i++) if (file[keyStart[key]! + i] !== word[i]) return false;
    return true;
  };
  return {
    lookup(word) {
      const bytes = encodeEucJp(word);
      if (!bytes || bytes.length === 0) return [];
      const lines: number[] = [];
      for (let k = slots[hashBytes(bytes, 0, bytes.length) & (SLOTS - 1)]!; k >= 0; k = keyNext[k]!)
        if (sameBytes(k, bytes) && !lines.includes(keyLine[k]!)) lines.push(keyLine[k]!);
      // Keys were chained newest first: file order is the reverse.
      return lines.reverse().map((from) => {
        const end = file.indexOf(NEWLINE, from);
        return decoder.decode(file.subarray(from, end < 0 ? file.length : end));
      });
    },
    *keys() {
      for (let k = 0; k < keys; k++)
        yield decoder.decode(file.subarray(keyStart[k], keyStart[k]! + keyLength[k]!));
    },
  };
}

/** Lines of `file`, the last one counted even without a newline. */
function countLines(file: Buffer): number {
  let n = 1;
  for (let p = file.indexOf(NEWLINE); p >= 0; p = file.indexOf(NEWLINE, p + 1)) n++;
  return n;
}
