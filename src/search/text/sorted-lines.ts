// Bisection over a sorted text file of lines, read from disk a block at a time: a dictionary's word
// list is searched without holding it in memory (docs/search-languages.md, memory).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Bytes per block, >= 1: the file is bisected over the first line of each block (one small read
 * per probe, kept), then one block is read and split into lines (the last BLOCKS_KEPT are kept).
 * 8 KiB holds about 200 index lines; 4..16 KiB measured alike.
 */
export const BLOCK_BYTES = 8192;
/** Blocks kept parsed: lookups cluster (a query's words, endings tried, a run of Han characters). */
export const BLOCKS_KEPT = 8;

/** A sorted file of lines, searched by a key read from each line. */
export interface SortedLines {
  /** The lines whose key equals `key`, in file order. */
  find(key: string): string[];
  /** The lines whose key starts with `prefix`, in file order (they are one run of the file). */
  findPrefix(prefix: string): string[];
  close(): void;
}

/**
 * Open `path`, whose lines are sorted by `keyOf(line)` in JavaScript string order (UTF-16 code
 * units). Nothing is read until the first `find`; memory stays at a few blocks and one key per
 * block probed.
 */
export function openSortedLines(
  path: string,
  keyOf: (line: string) => string,
  blockBytes: number = BLOCK_BYTES,
): SortedLines {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  const blocks = Math.max(1, Math.ceil(size / blockBytes));
  const starts = new Map<number, number>(); // block -> offset of its first line
  const firstKeys = new Map<number, string | null>(); // block -> key of its first line (null: none)
  const parsed = new Map<number, string[]>();

  const read = (from: number, length: number): Buffer => {
    const buf = Buffer.alloc(Math.max(0, Math.min(length, size - from)));
    readSync(fd, buf, 0, buf.length, from);
    return buf;
  };
  /** Offset of the first line that starts at or after `at` (size if none). */
  const lineStartFrom = (at: number): number => {
    if (at <= 0) return 0;
    for (let from = at - 1; from < size; from += 256) {
      const nl = read(from, 256).indexOf(10);
      if (nl >= 0) return from + nl + 1;
    }
    return size;
  };
  const startOf = (b: number): number => {
    if (b >= blocks) return size;
    let s = starts.get(b);
    if (s === undefined) starts.set(b, (s = lineStartFrom(b * blockBytes)));
    return s;
  };
  const lineAt = (from: number): string => {
    for (let length = 256; ; length *= 4) {
      const buf = read(from, length);
      const nl = buf.indexOf(10);
      if (nl >= 0 || from + buf.length >= size) return buf.toString('utf8', 0, nl >= 0 ? nl : buf.length);
    }
  };
  const firstKey = (b: number): string | null => {
    let k = firstKeys.get(b);
    if (k === undefined) {
      const s = startOf(b);
      firstKeys.set(b, (k = s < size ? keyOf(lineAt(s)) : null));
    }
    return k;
  };
  /** The lines that start in block `b`. */
  const linesOf = (b: number): string[] => {
    let lines = parsed.get(b);
    if (lines) return lines;
    const from = startOf(b);
    const text = read(from, startOf(b + 1) - from).toString('utf8');
    lines = text ? text.replace(/\n$/, '').split('\n') : [];
    if (parsed.size >= BLOCKS_KEPT) parsed.delete(parsed.keys().next().value!);
    parsed.set(b, lines);
    return lines;
  };

  /** The lines from the first whose key is `key` or above, while `take(key)` holds. */
  const scan = (key: string, take: (k: string) => boolean): string[] => {
    // The last block whose first key is below `key`: the lines taken start there or later.
    let lo = 0;
    let hi = blocks - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      const k = firstKey(mid);
      if (k !== null && k < key) lo = mid;
      else hi = mid - 1;
    }
    const found: string[] = [];
    for (let b = lo; b < blocks; b++) {
      for (const line of linesOf(b)) {
        const k = keyOf(line);
        if (k < key) continue;
        if (!take(k)) return found;
        found.push(line);
      }
    }
    return found;
  };

  return {
    find: (key) => scan(key, (k) => k === key),
    findPrefix: (prefix) => scan(prefix, (k) => k.startsWith(prefix)),
    close: () => closeSync(fd),
  };
}
