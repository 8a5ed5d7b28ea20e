// A stored copy of the lexical scorer's catalog state, so a cold start skips tokenising,
// stemming and indexing every tool. The key covers everything the state depends on: the
// documents' text, the ranker options and this build's search code; any change misses.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PostingsTable } from './bm25f.js';
import { TOOL_FIELDS, type LexicalState, type ToolWords } from './lexical-scorer.js';
import type { RankerOptions } from './options.js';
import type { SearchDoc } from '../query/types.js';

/** Bumped when the encoding changes (the code fingerprint also changes then, so this is belt and braces). */
export const SNAPSHOT_FORMAT = 3;

let codeFingerprint: string | undefined;

/**
 * A hash of this build's search code (every module file of search/ and its rooms): a snapshot made
 * by other tokenising or stemming code must never be read back.
 */
function searchCodeFingerprint(): string {
  if (codeFingerprint === undefined) {
    // search/ is two levels up from here in src/ and dist/; from the bundle (dist/carte/) two
    // levels up is dist/, whose search/ is the same build's compiled code.
    const up = dirname(dirname(fileURLToPath(import.meta.url)));
    const dir = basename(up) === 'search' ? up : join(up, 'search');
    const hash = createHash('sha256');
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
      if (!/\.(js|ts)$/.test(file) || /\.(test|d)\.ts$/.test(file)) continue;
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(`${dir}/${file}`))
        .update('\0');
    }
    codeFingerprint = hash.digest('hex');
  }
  return codeFingerprint;
}

/** The key a snapshot of `docs` analysed with `opts` is stored under. */
export function snapshotKey(docs: readonly SearchDoc[], opts: RankerOptions): string {
  const hash = createHash('sha256');
  hash.update(`carte-lexical-${SNAPSHOT_FORMAT}\0${endianness()}\0${searchCodeFingerprint()}\0`);
  hash.update(JSON.stringify(opts));
  const field = (f: string): string => `${f.length}:${f}`;
  for (const d of docs) {
    const params = (d.paramNames ?? []).join('\u0001');
    const useCases = (d.useCases ?? []).join('\u0001');
    hash.update(
      `${field(d.key)}\0${field(d.server)}\0${field(d.name)}\0${field(d.title ?? '')}\0` +
        `${field(d.description ?? '')}\0${field(params)}\0${field(d.serverDescription ?? '')}\0` +
        `${field(useCases)}`,
    );
  }
  return `${SNAPSHOT_FORMAT}:${hash.digest('hex')}`;
}

interface TableHead {
  size: number;
  terms: string[];
  postings: number;
}

interface Head {
  format: number;
  tools: TableHead;
  servers: TableHead;
  surfaceWords: string[];
  nameVocabulary: string[];
  nameIds: number;
  /** The tools' words (ToolWords): their surface words when not `surfaceWords` itself, and terms. */
  words?: string[];
  wordTerms: string[];
  wordIds: number;
}

type Section = Int32Array | Float64Array;

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** The state as bytes: a JSON head (strings and sizes), then the number arrays, 8-byte aligned. */
export function encodeLexicalState(state: LexicalState): Buffer {
  const vocabulary = new Map<string, number>();
  const nameOffsets = new Int32Array(state.nameTerms.length + 1);
  const ids: number[] = [];
  state.nameTerms.forEach((names, i) => {
    nameOffsets[i] = ids.length;
    for (const t of names) {
      if (!vocabulary.has(t)) vocabulary.set(t, vocabulary.size);
      ids.push(vocabulary.get(t)!);
    }
  });
  nameOffsets[state.nameTerms.length] = ids.length;
  const tableHead = (t: PostingsTable): TableHead => ({
    size: t.size,
    terms: t.terms,
    postings: t.docs.length,
  });
  const head: Head = {
    format: SNAPSHOT_FORMAT,
    tools: tableHead(state.tools),
    servers: tableHead(state.servers),
    surfaceWords: [...state.surfaceFrequency.keys()],
    nameVocabulary: [...vocabulary.keys()],
    nameIds: ids.length,
    // A whole catalog's words are its typo dictionary's, in the same order: written once.
    ...(sameList(state.words.words, state.surfaceFrequency.keys()) ? {} : { words: [...state.words.words] }),
    wordTerms: [...state.words.terms],
    wordIds: state.words.ids.length,
  };
  const sections: Section[] = [
    ...[state.tools, state.servers].flatMap((t) => [t.offsets, t.docs, t.weights]),
    Int32Array.from(state.surfaceFrequency.values()),
    nameOffsets,
    Int32Array.from(ids),
    state.words.termOf,
    state.words.starts,
    state.words.ids,
  ];
  const headBytes = Buffer.from(JSON.stringify(head));
  let size = align8(4 + headBytes.length);
  for (const s of sections) size += align8(s.byteLength);
  const out = Buffer.alloc(size);
  out.writeUInt32LE(headBytes.length, 0);
  headBytes.copy(out, 4);
  let at = align8(4 + headBytes.length);
  for (const s of sections) {
    out.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), at);
    at += align8(s.byteLength);
  }
  return out;
}

function sameList(list: readonly string[], other: Iterable<string>): boolean {
  let i = 0;
  for (const x of other) if (list[i++] !== x) return false;
  return i === list.length;
}

/** Thrown for bytes that are not a snapshot this build can read; the caller rebuilds. */
export class SnapshotError extends Error {}

function check(ok: boolean, what: string): void {
  if (!ok) throw new SnapshotError(`search snapshot is damaged: ${what}`);
}

// The per-element checks build their message only on failure: a message per posting was most of
// decoding's time (every cold `carte search` decodes about a million numbers).

/** Each value of `list` is in 0..limit-1. */
function checkBelow(list: Int32Array, limit: number, what: string): void {
  for (let i = 0; i < list.length; i++) {
    const v = list[i]!;
    if (v < 0 || v >= limit) check(false, `${what} ${v}`);
  }
}

/** `list` never goes down. */
function checkAscending(list: Int32Array, what: string): void {
  for (let i = 1; i < list.length; i++) if (list[i - 1]! > list[i]!) check(false, what);
}

/** Reads bytes written by `encodeLexicalState`, checking every size and document number. */
export function decodeLexicalState(bytes: Uint8Array, docCount: number): LexicalState {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  check(buf.length >= 4, 'too short');
  const headLength = buf.readUInt32LE(0);
  check(4 + headLength <= buf.length, 'head longer than the data');
  let head: Head;
  try {
    head = JSON.parse(buf.subarray(4, 4 + headLength).toString('utf8')) as Head;
  } catch {
    throw new SnapshotError('search snapshot is damaged: its head is not JSON');
  }
  check(head.format === SNAPSHOT_FORMAT, `format ${String(head.format)}, expected ${SNAPSHOT_FORMAT}`);
  let at = align8(4 + headLength);
  const take = <T extends Section>(Type: { new (n: number): T; BYTES_PER_ELEMENT: number }, n: number): T => {
    const length = n * Type.BYTES_PER_ELEMENT;
    check(Number.isInteger(n) && n >= 0 && at + length <= buf.length, 'a section runs past the end');
    const out = new Type(n); // a copy: the store's buffer need not be aligned
    new Uint8Array(out.buffer).set(buf.subarray(at, at + length));
    at += align8(length);
    return out;
  };
  const table = (h: TableHead, what: string): PostingsTable => {
    const offsets = take(Int32Array, h.terms.length + 1);
    const docs = take(Int32Array, h.postings);
    const weights = take(Float64Array, h.postings);
    check(offsets[0] === 0 && offsets[h.terms.length] === h.postings, `${what} offsets`);
    checkAscending(offsets, `${what} offsets`);
    checkBelow(docs, h.size, `${what} document`);
    return { size: h.size, terms: h.terms, offsets, docs, weights };
  };
  check(head.tools.size === docCount, `${head.tools.size} tools, the catalog has ${docCount}`);
  const tools = table(head.tools, 'tool');
  const servers = table(head.servers, 'server');
  const counts = take(Int32Array, head.surfaceWords.length);
  const nameOffsets = take(Int32Array, docCount + 1);
  const ids = take(Int32Array, head.nameIds);
  check(nameOffsets[docCount] === head.nameIds, 'name offsets');
  const vocabulary = head.nameVocabulary;
  const nameTerms = Array.from({ length: docCount }, (_, i) => {
    const names = new Set<string>();
    for (let j = nameOffsets[i]!; j < nameOffsets[i + 1]!; j++) {
      const term = vocabulary[ids[j]!];
      if (term === undefined) check(false, `name term ${ids[j]}`);
      names.add(term!);
    }
    return names;
  });
  const surfaceFrequency = new Map<string, number>();
  head.surfaceWords.forEach((w, i) => surfaceFrequency.set(w, counts[i]!));
  return { tools, servers, surfaceFrequency, nameTerms, words: toolWords(head, docCount, take) };
}

/** The ToolWords sections, every id checked against its list. */
function toolWords(
  head: Head,
  docCount: number,
  take: <T extends Section>(Type: { new (n: number): T; BYTES_PER_ELEMENT: number }, n: number) => T,
): ToolWords {
  const words = head.words ?? head.surfaceWords;
  const terms = head.wordTerms;
  const termOf = take(Int32Array, words.length);
  const starts = take(Int32Array, docCount * TOOL_FIELDS + 1);
  const ids = take(Int32Array, head.wordIds);
  checkBelow(termOf, terms.length, 'word term');
  check(starts[0] === 0 && starts[docCount * TOOL_FIELDS] === ids.length, 'word offsets');
  checkAscending(starts, 'word offsets');
  checkBelow(ids, words.length, 'word');
  return { words, termOf, terms, starts, ids };
}
