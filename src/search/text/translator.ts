// The translator seam: texts in another language are glossed into English words beside the original.

/**
 * Glosses text into English words. The index adds a tool's gloss as an extra field and a query's
 * gloss as extra query words; the original text is indexed and matched as before.
 */
export interface Translator {
  /** Names the translator and its data (part of the index snapshot key); 'none' glosses nothing. */
  readonly id: string;
  /** English words for the parts of `text` in another language, space-separated; '' when none. */
  gloss(text: string): string;
}

let tellProblem: (message: string) => void = () => undefined;

/**
 * Where a dictionary that is installed but cannot be used says so, once, naming its file and the
 * reason (the gateway passes its logger's warn); default: nowhere. Process-wide, as the
 * translators of RANKER_DEFAULTS are.
 */
export function onDictionaryProblem(warn: (message: string) => void): void {
  tellProblem = warn;
}

/** Tells the listener of `onDictionaryProblem`. */
export function reportDictionaryProblem(message: string): void {
  tellProblem(message);
}

/** The translator that glosses nothing. */
export const NO_TRANSLATOR: Translator = { id: 'none', gloss: () => '' };

/** A word list from one language to English glosses, e.g. CC-CEDICT's (cedict.ts). */
export interface GlossDictionary {
  /** Length in characters of the longest headword looked up (bounds the longest match). */
  readonly maxLength: number;
  /** The English gloss of a headword, if it has one. */
  get(word: string): string | undefined;
  /** The form a character is looked up as (a Japanese kanji to its Chinese form), if it differs. */
  variant(char: string): string | undefined;
}

const HAN_RUN = /\p{Script=Han}+/gu;
const HAN = /\p{Script=Han}/u;

/**
 * Segment a run of Han characters into dictionary words, longest match first from the left
 * (forward maximum matching), and return their glosses. Characters that start no word give none.
 */
export function glossHanRun(run: string, dict: GlossDictionary): string[] {
  const chars = Array.from(run, (c) => dict.variant(c) ?? c);
  const out: string[] = [];
  for (let i = 0; i < chars.length;) {
    let step = 1;
    for (let len = Math.min(dict.maxLength, chars.length - i); len >= 1; len--) {
      const gloss = dict.get(chars.slice(i, i + len).join(''));
      if (gloss === undefined) continue;
      if (gloss) out.push(gloss);
      step = len;
      break;
    }
    i += step;
  }
  return out;
}

/** A translator that glosses the Han runs of a text (Chinese, and the kanji of Japanese) with `dict`. */
export function createDictionaryTranslator(id: string, dict: GlossDictionary): Translator {
  return {
    id,
    gloss(text) {
      if (!HAN.test(text)) return '';
      const out: string[] = [];
      for (const [run] of text.matchAll(HAN_RUN)) out.push(...glossHanRun(run, dict));
      return out.join(' ');
    },
  };
}

/** One translator made of several: its id names them all, its gloss joins theirs. */
export function combineTranslators(...parts: Translator[]): Translator {
  return {
    get id() {
      const ids = parts.map((t) => t.id).filter((id) => id !== NO_TRANSLATOR.id);
      return ids.length ? ids.join('+') : NO_TRANSLATOR.id;
    },
    gloss: (text) =>
      parts
        .map((t) => t.gloss(text))
        .filter(Boolean)
        .join(' '),
  };
}
