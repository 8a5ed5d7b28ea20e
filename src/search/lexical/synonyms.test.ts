import { describe, expect, it } from 'vitest';
import { analyze } from '../text/analyze.js';
import { porterStemmer } from '../text/stem.js';
import { buildSynonymTable, SYNONYM_GROUPS, SYNONYM_WEIGHT } from './synonyms.js';

const expand = buildSynonymTable((text) => analyze(text, porterStemmer));
const terms = (...words: string[]) => words.map((term) => ({ term, weight: 1 }));

describe('buildSynonymTable', () => {
  it.each([
    ['docx', ['doc', 'word', 'document']],
    ['folder', ['directori', 'dir']],
    ['repo', ['repositori']],
  ])('%s expands to %j at the synonym weight', (word, expected) => {
    const out = expand(terms(porterStemmer(word)));
    expect(out[0]).toEqual({ term: porterStemmer(word), weight: 1 });
    expect(
      out
        .slice(1)
        .map((t) => t.term)
        .sort(),
    ).toEqual([...expected].sort());
    for (const t of out.slice(1)) expect(t.weight).toBe(SYNONYM_WEIGHT);
  });

  it('leaves words outside the thesaurus and never duplicates a typed word', () => {
    expect(expand(terms('zebra'))).toEqual(terms('zebra'));
    const out = expand(terms('folder', 'directori'));
    expect(out.filter((t) => t.term === 'directori')).toEqual([{ term: 'directori', weight: 1 }]);
  });

  it('scales expansions of a weaker word', () => {
    expect(expand([{ term: 'repo', weight: 0.5 }])).toContainEqual({
      term: 'repositori',
      weight: 0.5 * SYNONYM_WEIGHT,
    });
  });

  it('has no group with a single member', () => {
    for (const g of SYNONYM_GROUPS) expect(g.length).toBeGreaterThan(1);
  });
});

describe('synonym idf cap', () => {
  it('never lets a rare synonym outweigh the typed word', () => {
    const idf = (t: string): number => (t === 'search' ? 0.5 : 2);
    const out = expand([{ term: 'search', weight: 1 }], idf);
    for (const t of out.slice(1))
      expect(t.weight * idf(t.term)).toBeLessThanOrEqual(SYNONYM_WEIGHT * idf('search') + 1e-12);
    const common = expand([{ term: 'search', weight: 1 }], () => 1);
    for (const t of common.slice(1)) expect(t.weight).toBe(SYNONYM_WEIGHT);
  });
});

describe('synonyms of unknown words', () => {
  it('are not capped: the catalog lacks the typed word, so its synonyms are all there is', () => {
    const idf = (t: string): number => (t === 'xlsx' ? 0 : 3);
    expect(expand([{ term: 'xlsx', weight: 1 }], idf)).toContainEqual({
      term: 'excel',
      weight: SYNONYM_WEIGHT,
    });
  });
});
