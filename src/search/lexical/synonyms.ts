// A small, general thesaurus of tool vocabulary: abbreviations, file types and common verbs.
import type { WeightedTerm } from './bm25f.js';

/**
 * Groups of interchangeable words, limited to general software vocabulary: file formats and the
 * apps that own them, common abbreviations, and CRUD verbs. Domain words (weather, stocks,
 * recipes...) are left out on purpose: they would be tuned to whatever queries one has seen.
 * Each word expands to the others of its groups; a phrase expands to all its words.
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  // documents and file formats
  ['doc', 'docx', 'word document'],
  ['ppt', 'pptx', 'powerpoint', 'presentation', 'slides', 'slide deck'],
  ['xls', 'xlsx', 'excel', 'spreadsheet', 'worksheet'],
  ['md', 'markdown'],
  ['csv', 'comma separated'],
  ['image', 'picture', 'photo', 'img', 'png', 'jpg', 'jpeg'],
  ['chart', 'graph', 'plot', 'diagram'],
  ['folder', 'directory', 'dir'],
  ['repo', 'repository'],
  ['db', 'database'],
  ['url', 'link', 'webpage', 'website', 'web page', 'site'],
  ['email', 'mail', 'e-mail'],
  ['msg', 'message'],
  ['info', 'information'],
  ['calc', 'calculate', 'calculator'],
  ['translate', 'translation', 'translator'],
  ['ai', 'artificial intelligence'],
  ['llm', 'language model'],
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['py', 'python'],
  ['k8s', 'kubernetes'],
  ['api', 'endpoint'],
  ['auth', 'authentication', 'login'],
  ['config', 'configuration', 'settings'],
  ['env', 'environment'],
  ['stats', 'statistics', 'metrics'],
  ['docs', 'documentation', 'manual'],
  // verbs
  ['search', 'find', 'lookup', 'look up', 'query', 'discover'],
  ['get', 'fetch', 'retrieve', 'obtain'],
  ['create', 'make', 'generate', 'new', 'add'],
  ['delete', 'remove', 'erase'],
  ['update', 'edit', 'modify', 'change'],
  ['write', 'save', 'store'],
  ['read', 'open', 'load', 'view'],
  ['list', 'enumerate', 'browse'],
  ['run', 'execute', 'launch', 'start'],
  ['convert', 'transform', 'export'],
  ['summarize', 'summary', 'summarise'],
  ['download', 'fetch file'],
  ['send', 'post', 'publish'],
  ['compare', 'comparison', 'diff'],
];

/** Weight of an expansion term relative to a typed word, 0..1. */
export const SYNONYM_WEIGHT = 0.4;

/** Expands weighted query terms; `idf` (when given) caps each synonym, see buildSynonymTable. */
export type SynonymExpander = (
  terms: readonly WeightedTerm[],
  idf?: (term: string) => number,
) => WeightedTerm[];

/**
 * Build the expander over index terms (phrases analysed like the index). A synonym gets
 * SYNONYM_WEIGHT of its source word's weight, further scaled by min(1, idf(source) / idf(synonym))
 * so a rare synonym never outweighs the common word the user actually typed (words absent from
 * the catalog are not capped: their synonyms are all there is).
 */
export function buildSynonymTable(analyze: (text: string) => string[]): SynonymExpander {
  const table = new Map<string, Set<string>>();
  for (const group of SYNONYM_GROUPS) {
    const members = group.map((phrase) => analyze(phrase));
    for (const from of members) {
      if (from.length !== 1) continue;
      const set = table.get(from[0]!) ?? new Set<string>();
      for (const to of members) for (const t of to) if (t !== from[0]) set.add(t);
      table.set(from[0]!, set);
    }
  }
  return (terms, idf) => {
    const have = new Set(terms.map((t) => t.term));
    const extra = new Map<string, number>();
    for (const { term, weight } of terms) {
      for (const syn of table.get(term) ?? []) {
        if (have.has(syn)) continue;
        // A word the catalog never uses (idf 0) has nothing to be outweighed: no cap.
        const source = idf ? idf(term) : 0;
        const cap = source > 0 ? Math.min(1, source / (idf!(syn) || 1)) : 1;
        extra.set(syn, Math.max(extra.get(syn) ?? 0, weight * SYNONYM_WEIGHT * cap));
      }
    }
    return [...terms, ...[...extra].map(([term, weight]) => ({ term, weight }))];
  };
}
