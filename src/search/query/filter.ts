// Hard filters of a search call: the caller's visibility, server, tags, categories, required
// phrases, and the word filters (required, OR groups, excluded: boolean-filter.ts).
import { tokenize } from '../text/tokenize.js';
import { booleanMask, buildTermPostings, type MaskSource } from './boolean-filter.js';
import type { SearchDoc, SearchOptions } from './types.js';

/** Lower-cased token text of every field of a doc, space-delimited at both ends. */
function docText(doc: SearchDoc): string {
  const fields = [
    doc.name,
    doc.title,
    doc.description,
    ...(doc.useCases ?? []),
    (doc.paramNames ?? []).join(' '),
    doc.server,
  ];
  return ` ${tokenize(fields.join(' ')).join(' ')} `;
}

/** A phrase as docText writes it, to find with `includes`. */
const phraseText = (phrase: string): string => ` ${tokenize(phrase).join(' ')} `;

/** Builds per-call predicates; doc texts and their postings are computed on first use and kept. */
export function buildFilters(docs: readonly SearchDoc[], terms: (text: string) => string[]) {
  let texts: string[] | undefined;
  let source: MaskSource | undefined;
  const lower = (xs: readonly string[] | undefined): string[] => (xs ?? []).map((x) => x.toLowerCase());
  const docTexts = (): string[] => (texts ??= docs.map(docText));
  const maskSource = (): MaskSource =>
    (source ??= {
      size: docs.length,
      postings: buildTermPostings(docTexts().map((t) => terms(t))),
      terms,
      hasPhrase: (i, phrase) => docTexts()[i]!.includes(phraseText(phrase)),
      isEmptyPhrase: (phrase) => phraseText(phrase).trim() === '',
    });

  /** A predicate over doc numbers for `options`, or undefined when nothing is filtered. */
  return function allowedBy(options: SearchOptions): ((i: number) => boolean) | undefined {
    const tags = lower(options.tags);
    const categories = lower(options.categories);
    const phrases = (options.phrases ?? []).map(phraseText).filter((p) => p.trim() !== '');
    const words = {
      require: (options.require ?? []).map(terms),
      anyOf: options.anyOf ?? [],
      exclude: (options.exclude ?? []).flatMap(terms),
    };
    const mask =
      words.require.length || words.anyOf.length || words.exclude.length
        ? booleanMask(maskSource(), words)
        : undefined;
    const { server, allowKey } = options;
    if (
      server === undefined &&
      allowKey === undefined &&
      !tags.length &&
      !categories.length &&
      !phrases.length &&
      !mask
    )
      return undefined;
    if (phrases.length) docTexts();
    return (i) => {
      const d = docs[i]!;
      if (mask && !mask[i]) return false;
      if (allowKey !== undefined && !allowKey(d.key)) return false;
      if (server !== undefined && d.server !== server) return false;
      if (tags.length && !tags.every((t) => lower(d.tags).includes(t))) return false;
      if (categories.length && !lower(d.categories).some((c) => categories.includes(c))) return false;
      return !(phrases.length && !phrases.every((p) => texts![i]!.includes(p)));
    };
  };
}
