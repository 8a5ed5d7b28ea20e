// A reader of dictd dictionaries (`name.index` + `name.dict.dz`), as Debian's dict-freedict-*
// packages install them: both the index and the text stay on disk and are read per lookup.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
// Built-in modules a command may never need are loaded when used (process.getBuiltinModule), not at
// start: docs/benchmarks.md, "CLI start".
import { openSortedLines } from './sorted-lines.js';

const DICTD_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A number in dictd's base64 (most significant digit first), e.g. `BZ` = 89; NaN if not one. */
export function decodeDictdNumber(text: string): number {
  let n = 0;
  for (const c of text) {
    const d = DICTD_DIGITS.indexOf(c);
    if (d < 0) return NaN;
    n = n * 64 + d;
  }
  return text ? n : NaN;
}

/** Where the compressed chunks of a dictzip file are: dictzip is gzip with a chunk table ("RA"). */
export interface DictzipLayout {
  /** Uncompressed bytes per chunk (the last may be shorter). */
  chunkLength: number;
  /** File offset of each chunk's raw deflate data, and one past the last. */
  starts: number[];
}

/** Read the chunk table from a dictzip header (RFC 1952 plus the `RA` extra field of dictzip(1)). */
export function parseDictzipHeader(head: Buffer): DictzipLayout {
  if (head[0] !== 0x1f || head[1] !== 0x8b || !((head[3] ?? 0) & 4)) throw new Error('not a dictzip file');
  const flags = head[3]!;
  const xlen = head.readUInt16LE(10);
  let chunkLength = 0;
  let sizes: number[] = [];
  for (let p = 12; p + 4 <= 12 + xlen;) {
    const id = head.toString('latin1', p, p + 2);
    const len = head.readUInt16LE(p + 2);
    if (id === 'RA') {
      chunkLength = head.readUInt16LE(p + 6);
      const count = head.readUInt16LE(p + 8);
      sizes = Array.from({ length: count }, (_, i) => head.readUInt16LE(p + 10 + 2 * i));
    }
    p += 4 + len;
  }
  if (!chunkLength) throw new Error('not a dictzip file: no chunk table');
  let p = 12 + xlen;
  for (const bit of [8, 16]) if (flags & bit) p = head.indexOf(0, p) + 1; // file name, comment
  if (flags & 2) p += 2; // header CRC
  const starts = [p];
  for (const size of sizes) starts.push(starts[starts.length - 1]! + size);
  return { chunkLength, starts };
}

/** One index line: a headword and where its entry is in the uncompressed text. */
export interface IndexEntry {
  headword: string;
  offset: number;
  length: number;
}

/** An open dictionary: entries by headword, letter case ignored. */
export interface DictdDictionary {
  /** The entries whose headword equals `word` ignoring case, exact case first; each the entry's text. */
  lookup(word: string): string[];
  close(): void;
}

/** The index line's fields; its key is the lower-cased headword (the index is sorted by it). */
function indexEntry(line: string): IndexEntry {
  const [headword = '', offset = '', length = ''] = line.split('\t');
  return { headword, offset: decodeDictdNumber(offset), length: decodeDictdNumber(length) };
}

/** The lower-cased headword of an index line: the order the index is sorted in. */
function headwordKey(line: string): string {
  const tab = line.indexOf('\t');
  return (tab < 0 ? line : line.slice(0, tab)).toLowerCase();
}

/** Open `<base>.index` and `<base>.dict.dz`: both stay on disk, read by bisection and by chunk per lookup. */
export function openDictd(base: string): DictdDictionary {
  const index = openSortedLines(`${base}.index`, headwordKey);
  const fd = openSync(`${base}.dict.dz`, 'r');
  const head = Buffer.alloc(Math.min(65536, fstatSync(fd).size));
  readSync(fd, head, 0, head.length, 0);
  const layout = parseDictzipHeader(head);
  const chunks = new Map<number, Buffer>(); // a few recent chunks: lookups cluster

  const chunk = (i: number): Buffer => {
    let data = chunks.get(i);
    if (data) return data;
    const from = layout.starts[i]!;
    const raw = Buffer.alloc(layout.starts[i + 1]! - from);
    readSync(fd, raw, 0, raw.length, from);
    const { constants, inflateRawSync } = process.getBuiltinModule('node:zlib');
    data = inflateRawSync(raw, { finishFlush: constants.Z_SYNC_FLUSH });
    if (chunks.size >= 4) chunks.delete(chunks.keys().next().value!);
    chunks.set(i, data);
    return data;
  };
  const text = ({ offset, length }: IndexEntry): string => {
    const first = Math.floor(offset / layout.chunkLength);
    const last = Math.floor((offset + length - 1) / layout.chunkLength);
    const parts: Buffer[] = [];
    for (let i = first; i <= last && i < layout.starts.length - 1; i++) parts.push(chunk(i));
    const from = offset - first * layout.chunkLength;
    return Buffer.concat(parts).toString('utf8', from, from + length);
  };

  return {
    lookup(word) {
      const found = index.find(word.toLowerCase()).map(indexEntry);
      found.sort((a, b) => Number(b.headword === word) - Number(a.headword === word));
      return found.filter((e) => Number.isFinite(e.offset) && Number.isFinite(e.length)).map(text);
    },
    close: () => {
      index.close();
      closeSync(fd);
    },
  };
}

/** Notes, tags and placeholders inside a FreeDict gloss line: `[comp.]`, `<n>`, `(of sth.)`, `sth.`. */
const GLOSS_NOISE = /\[[^\]]*\]|<[^>]*>|\([^)]*\)|\/[^/]*\/|\b(sth|sb|etw|jdn|jdm)\./g;
/** Lines that are not glosses: examples (indented quotes), synonyms, cross-references, notes. */
const NOT_A_GLOSS = /^\s*("|Synonyms?:|see:|Note:|Notes?:)/;

/**
 * The English glosses of one FreeDict entry, in order: the lines after the headword line, minus
 * examples, synonyms, cross-references and notes, split at commas and semicolons, numbering and
 * grammar tags removed. `"buscar /…/\n1. fetch, get\n2. look for, seek\n"` → fetch, get, look for, seek.
 */
export function parseFreedictGlosses(entry: string): string[] {
  const out: string[] = [];
  for (const line of entry.split('\n').slice(1)) {
    if (!line.trim() || NOT_A_GLOSS.test(line)) continue;
    const text = line.replace(/^\s*\d+\.\s*/, '').replace(GLOSS_NOISE, ' ');
    for (const part of text.split(/[,;]/)) {
      const gloss = part.replace(/\s+/g, ' ').trim();
      if (gloss && !out.includes(gloss)) out.push(gloss);
    }
  }
  return out;
}
