// Hard filters of a search call: the caller's visibility, server, tags, categories, required
// phrases, excluded words.
import { tokenize } from '../text/tokenize.js';
import type { SearchDoc, SearchOptions } from './types.js';

/** Lower-cased token text of every field of a doc, space-delimited at both ends. */
function docText(doc: SearchDoc): string {
  const fields = [doc.name, doc.title, doc.description, (doc.paramNames ?? []).join(' '), doc.server];
  return ` ${tokenize(fields.join(' ')).join(' ')} `;
}

/** Builds per-call predicates; doc texts are computed on first use and kept. */
export function buildFilters(docs: readonly SearchDoc[], terms: (text: string) => string[]) {
  let texts: string[] | undefined;
  let termSets: Set<string>[] | undefined;
  const lower = (xs: readonly string[] | undefined): string[] => (xs ?? []).map((x) => x.toLowerCase());

  /** A predicate over doc numbers for `options`, or undefined when nothing is filtered. */
  return function allowedBy(options: SearchOptions): ((i: number) => boolean) | undefined {
    const tags = lower(options.tags);
    const categories = lower(options.categories);
    const phrases = (options.phrases ?? [])
      .map((p) => ` ${tokenize(p).join(' ')} `)
      .filter((p) => p.trim() !== '');
    const exclude = (options.exclude ?? []).flatMap(terms);
    const { server, allowKey } = options;
    if (
      server === undefined &&
      allowKey === undefined &&
      !tags.length &&
      !categories.length &&
      !phrases.length &&
      !exclude.length
    )
      return undefined;
    if (phrases.length) texts ??= docs.map(docText);
    if (exclude.length) termSets ??= docs.map((d) => new Set(terms(docText(d))));
    return (i) => {
      const d = docs[i]!;
      if (allowKey !== undefined && !allowKey(d.key)) return false;
      if (server !== undefined && d.server !== server) return false;
      if (tags.length && !tags.every((t) => lower(d.tags).includes(t))) return false;
      if (categories.length && !lower(d.categories).some((c) => categories.includes(c))) return false;
      if (phrases.length && !phrases.every((p) => texts![i]!.includes(p))) return false;
      return !exclude.some((t) => termSets![i]!.has(t));
    };
  };
}
