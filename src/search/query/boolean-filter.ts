// Required words, OR groups and excluded words (issue 29, item 4) as one mask over the catalog,
// computed per query from an inverted index of the tools' text: the work is the postings of the
// query's words, not a scan of every tool.
import type { Alternative } from './types.js';

/** Term -> the ascending numbers of the docs whose text has it. */
export type TermPostings = ReadonlyMap<string, readonly number[]>;

/** The postings of each doc's terms (docs numbered in order). */
export function buildTermPostings(docTerms: readonly (readonly string[])[]): TermPostings {
  const postings = new Map<string, number[]>();
  docTerms.forEach((terms, i) => {
    for (const t of terms) {
      const list = postings.get(t);
      if (!list) postings.set(t, [i]);
      else if (list.at(-1) !== i) list.push(i);
    }
  });
  return postings;
}

/** What the mask is made of, with words and phrases already analysed by the index. */
export interface BooleanQuery {
  /** The terms of each required word; all of a word's terms must be in a doc. */
  require: readonly (readonly string[])[];
  anyOf: readonly (readonly Alternative[])[];
  /** Excluded terms: no doc may have any of them. */
  exclude: readonly string[];
}

export interface MaskSource {
  size: number;
  postings: TermPostings;
  /** Index terms of a word or phrase, as the index analyses text. */
  terms: (text: string) => string[];
  /** Whether doc `i`'s text has `phrase` (a text, matched as `SearchOptions.phrases` are). */
  hasPhrase: (i: number, phrase: string) => boolean;
  /** Whether `phrase` has any word at all (else it constrains nothing). */
  isEmptyPhrase: (phrase: string) => boolean;
}

/** Docs with every one of `terms` (undefined: no term, so no constraint). */
function allOf(postings: TermPostings, terms: readonly string[]): readonly number[] | undefined {
  if (terms.length === 0) return undefined;
  const lists = terms.map((t) => postings.get(t) ?? []).sort((a, b) => a.length - b.length);
  let docs = lists[0]!;
  for (const list of lists.slice(1)) {
    const has = new Set(list);
    docs = docs.filter((d) => has.has(d));
  }
  return docs;
}

/** Docs with the alternative (undefined: it constrains nothing, so neither does its group). */
function docsOf(src: MaskSource, alt: Alternative): readonly number[] | undefined {
  if ('word' in alt) return allOf(src.postings, src.terms(alt.word));
  if (src.isEmptyPhrase(alt.phrase)) return undefined;
  // A doc with the phrase has each of its terms: only those are read (all docs if it has none).
  const candidates =
    allOf(src.postings, src.terms(alt.phrase)) ?? Array.from({ length: src.size }, (_, i) => i);
  return candidates.filter((i) => src.hasPhrase(i, alt.phrase));
}

/** Docs with at least one alternative, each once (undefined: no constraint). */
function unionOf(src: MaskSource, group: readonly Alternative[]): readonly number[] | undefined {
  const seen = new Uint8Array(src.size);
  const out: number[] = [];
  for (const alt of group) {
    const docs = docsOf(src, alt);
    if (!docs) return undefined;
    for (const d of docs) {
      if (seen[d]) continue;
      seen[d] = 1;
      out.push(d);
    }
  }
  return out;
}

/** 1 for each doc that passes `q`, or undefined when `q` constrains nothing. */
export function booleanMask(src: MaskSource, q: BooleanQuery): Uint8Array | undefined {
  const sets = [
    ...q.require.map((terms) => allOf(src.postings, terms)),
    ...q.anyOf.map((group) => unionOf(src, group)),
  ].filter((s) => s !== undefined);
  if (sets.length === 0 && q.exclude.length === 0) return undefined;
  const mask = new Uint8Array(src.size);
  if (sets.length === 0) mask.fill(1);
  else {
    const counts = new Uint16Array(src.size);
    for (const set of sets) for (const d of set) counts[d]!++;
    for (let i = 0; i < src.size; i++) if (counts[i] === sets.length) mask[i] = 1;
  }
  for (const t of q.exclude) for (const d of src.postings.get(t) ?? []) mask[d] = 0;
  return mask;
}
