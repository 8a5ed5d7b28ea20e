// One EDICT entry as the Japanese translator reads it (edict.ts), whether from the dictionary's own
// lines (edict-index.ts) or from its gloss file (edict-file.ts).

const KANJI = /\p{Script=Han}/u;
const TAG_GROUP = /^\(([^)]*)\)\s*/;

/** One EDICT line: its headword, reading, tags and senses. */
export interface EdictEntry {
  headword: string;
  /** The kana reading of a kanji headword; undefined for a kana headword. */
  reading?: string;
  /** The tags of the first sense: its parts of speech (`n`, `vs`, `prt`...) and others (`uk`, `comp`...). */
  tags: string[];
  /** Usually written in kana alone (`uk`), in its first sense. */
  kana: boolean;
  /** A common word (`(P)`). */
  common: boolean;
  /** The glosses of its computing senses (`(comp)`), in dictionary order, without their leading tags. */
  computing: string[];
  /** The glosses of the other senses, likewise. */
  glosses: string[];
}

/** Parse `KANJI [KANA] /(pos) (1) gloss/gloss/(2) gloss/(P)/EntL1234X/` (or `KANA /.../`). */
export function parseEdictLine(line: string): EdictEntry | undefined {
  const slash = line.indexOf(' /');
  if (slash < 0) return undefined;
  const [headword = '', bracket] = line.slice(0, slash).split(' ');
  const reading = bracket?.startsWith('[') ? bracket.slice(1, -1) : undefined;
  const entry: EdictEntry = { headword, tags: [], kana: false, common: false, glosses: [], computing: [] };
  if (reading) entry.reading = reading;
  let computing = false; // a (comp) tag holds until the next numbered sense
  for (const item of line.slice(slash + 2).split('/')) {
    if (item === '(P)') entry.common = true;
    if (!item || item === '(P)' || /^EntL\d/.test(item)) continue;
    let text = item;
    const tags: string[] = [];
    for (let m = TAG_GROUP.exec(text); m; m = TAG_GROUP.exec(text)) {
      tags.push(...m[1]!.split(','));
      text = text.slice(m[0].length);
    }
    const first = entry.glosses.length === 0 && entry.computing.length === 0;
    if (first) entry.tags = tags.filter((t) => !/^\d+$/.test(t));
    if (first && tags.includes('uk')) entry.kana = true;
    if (tags.includes('comp')) computing = true;
    else if (tags.some((t) => /^\d+$/.test(t))) computing = false;
    if (text) (computing ? entry.computing : entry.glosses).push(text);
  }
  return entry;
}

/**
 * Whether the word written `surface` can be `entry`: a kanji form by its headword; a kana form by
 * its headword or by the reading of an entry usually written in kana (`uk`), so that the kana of
 * okurigana and particles do not read as rare kanji words.
 */
export function isWrittenAs(entry: EdictEntry, surface: string): boolean {
  return entry.headword === surface || (entry.kana && entry.reading === surface && !KANJI.test(surface));
}

/**
 * The entries found under a headword or reading, in file order: all of them (the in-memory index),
 * or those it can be written as (`isWrittenAs`, the gloss file), the only ones the translator reads.
 */
export type EdictEntries = (word: string) => readonly EdictEntry[];
