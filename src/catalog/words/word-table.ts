// Words as small integers: each distinct token gets a dense id, so the word scores, the verb tags
// and the "counted once per text" stamps are arrays indexed by id instead of maps keyed by
// strings. The tokenizer (word-scan.ts) looks a word up straight from the text's characters, so
// a word seen before costs no substring, no lower-case copy and no garbage (docs/menu.md, Speed).

/** Distinct words kept before the table starts over (bounds memory, as the stemmer's memo does). */
export const WORD_TABLE_SIZE = 100_000;

let words: string[] = [];
let hashes = new Int32Array(1024);
/** Open addressing: id + 1 per slot, 0 = empty; at most half full. */
let slots = new Int32Array(2048);
let mask = slots.length - 1;
let generation = 0;

/** Changes whenever the table starts over: caches indexed by id compare it to know they are stale. */
export function wordGeneration(): number {
  return generation;
}

/** Number of distinct words in the table: ids are 0 .. wordCount() - 1. */
export function wordCount(): number {
  return words.length;
}

/** The word of an id. */
export function wordOf(id: number): string {
  return words[id]!;
}

/**
 * Starts the table over when it holds WORD_TABLE_SIZE words or more. Call it only where no id is
 * held (before a server's or a tool's words are looked up): every id is invalid afterwards.
 */
export function boundWordTable(): void {
  if (words.length < WORD_TABLE_SIZE) return;
  words = [];
  slots.fill(0);
  generation++;
}

/** A word's hash: h = h × 31 + char code over its characters, in 32 bits (h of one character is its code). */
export function hashWord(word: string): number {
  let h = 0;
  for (let k = 0; k < word.length; k++) h = (Math.imul(h, 31) + word.charCodeAt(k)) | 0;
  return h;
}

/**
 * The id of text[start, end) lower-cased, ASCII letters and digits (a word of word-scan.ts), given
 * its lower-case hash: looked up from the characters, no substring unless the word is new.
 */
export function internRange(text: string, start: number, end: number, hash: number): number {
  const length = end - start;
  for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
    const found = slots[slot]!;
    if (found === 0) return add(text.slice(start, end).toLowerCase(), hash, slot);
    const id = found - 1;
    if (hashes[id] !== hash) continue;
    const word = words[id]!;
    if (word.length !== length) continue;
    let k = 0;
    while (k < length && word.charCodeAt(k) === (text.charCodeAt(start + k) | 0x20)) k++;
    if (k === length) return id;
  }
}

/** The id of a word, exactly as given. */
export function intern(word: string): number {
  const hash = hashWord(word);
  for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
    const found = slots[slot]!;
    if (found === 0) return add(word, hash, slot);
    if (hashes[found - 1] === hash && words[found - 1] === word) return found - 1;
  }
}

function add(word: string, h: number, slot: number): number {
  const id = words.length;
  words.push(word);
  if (id >= hashes.length) {
    const grown = new Int32Array(hashes.length * 2);
    grown.set(hashes);
    hashes = grown;
  }
  hashes[id] = h;
  slots[slot] = id + 1;
  if (words.length * 2 > slots.length) rehash(slots.length * 2);
  return id;
}

function rehash(size: number): void {
  slots = new Int32Array(size);
  mask = size - 1;
  for (let id = 0; id < words.length; id++) {
    let slot = hashes[id]! & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = id + 1;
  }
}
