// The baseline: plain BM25 over one field (name + description), whitespace/punctuation tokens.
import { mergeRankings, type SearchDoc } from '../../src/search/index.js';

const K1 = 1.2;
const B = 0.75;

/** Lower-case runs of letters and digits: no identifier splitting, no stemming, no CJK handling. */
export function plainTokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

/** A plain BM25 ranker with the same search(query | queries) shape as the real index. */
export function buildPlainBm25(docs: readonly SearchDoc[]): {
  search(q: string | string[], limit: number): string[];
} {
  const postings = new Map<string, { doc: number; tf: number }[]>();
  const lengths = docs.map((d, i) => {
    const tokens = plainTokens(`${d.name} ${d.description ?? ''}`);
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [t, tf] of counts) {
      const list = postings.get(t) ?? [];
      list.push({ doc: i, tf });
      postings.set(t, list);
    }
    return tokens.length;
  });
  const avg = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const n = docs.length;

  function rank(query: string, limit: number): { key: string; relevance: number }[] {
    const scores = new Map<number, number>();
    for (const t of new Set(plainTokens(query))) {
      const list = postings.get(t);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[doc]!) / avg));
        scores.set(doc, (scores.get(doc) ?? 0) + s);
      }
    }
    const sorted = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit);
    const top = sorted[0]?.[1] ?? 1;
    return sorted.map(([doc, s]) => ({ key: docs[doc]!.key, relevance: s / top }));
  }

  return {
    search(q, limit) {
      const queries = (Array.isArray(q) ? q : [q]).filter((x) => x.trim() !== '');
      return mergeRankings(
        queries.map((x) => rank(x, limit * 2)),
        limit,
      ).map((h) => h.key);
    },
  };
}
