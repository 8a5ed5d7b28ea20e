import { describe, expect, it } from 'vitest';
import {
  buildSearchIndex,
  createDictionaryTranslator,
  glossOfSenses,
  lazyCedictTranslator,
  NO_TRANSLATOR,
  onDictionaryProblem,
  type GlossDictionary,
  type SearchDoc,
} from '../index.js';

/** A tiny made-up dictionary: the translator's logic without CC-CEDICT's data. */
function dictionary(entries: Record<string, string>, variants: Record<string, string> = {}): GlossDictionary {
  return {
    maxLength: Math.max(...Object.keys(entries).map((w) => Array.from(w).length)),
    get: (w) => entries[w],
    variant: (c) => variants[c],
  };
}

const DICT = dictionary(
  { 天气: 'weather', 天气预报: 'weather forecast', 预报: 'forecast', 城市: 'city', 天: 'day', 氣: 'air' },
  { 気: '氣' },
);

describe('glossOfSenses', () => {
  it.each([
    [['weather'], 'weather'],
    [['to search (a place, a database, online etc); to search for (sth)'], 'to search for'],
    [['share certificate', 'stock (finance)'], 'share certificate stock'],
    [['surname Wang', 'king'], 'king'],
    [['variant of 個|个[ge4]'], ''],
    [['Tokyo, capital of Japan', 'Tonkin'], 'Tokyo Tonkin'],
    [['to check', 'to inquire', 'query'], 'to check inquire'],
    [['(computing) screenshot; to take a screenshot'], 'screenshot to take a'],
    [['a very long first sense with many words', 'second'], 'a very long first'],
  ])('%j -> %j', (senses, gloss) => {
    expect(glossOfSenses(senses)).toBe(gloss);
  });
});

describe('createDictionaryTranslator', () => {
  const t = createDictionaryTranslator('test', DICT);

  it.each([
    ['天气预报', 'weather forecast'], // the longest match wins over 天气 + 预报
    ['城市天气', 'city weather'],
    ['查询城市的天气', 'city weather'], // characters that start no word give nothing
    ['天気', 'day air'], // a Japanese kanji is looked up as its Chinese form
    ['weather in Paris', ''],
    ['', ''],
  ])('%j -> %j', (text, gloss) => {
    expect(t.gloss(text)).toBe(gloss);
  });
});

describe('lazyCedictTranslator', () => {
  it('loads nothing until a text has a Han character, and loads once', () => {
    let loads = 0;
    const t = lazyCedictTranslator({ id: 'test', load: () => (loads++, DICT) });
    expect(t.gloss('get the weather')).toBe('');
    expect(loads).toBe(0);
    expect(t.gloss('天气')).toBe('weather');
    expect(t.gloss('城市')).toBe('city');
    expect(loads).toBe(1);
  });

  it.each([
    ['is not installed', () => undefined],
    [
      'fails to load',
      () => {
        throw new Error('corrupt data');
      },
    ],
  ])('glosses nothing, and says so in its id, when the dictionary %s', (_, load) => {
    const t = lazyCedictTranslator({ id: 'test', load });
    expect(t.gloss('天气')).toBe('');
    expect(t.gloss('天气')).toBe('');
    expect(t.id).toBe('none');
  });

  it('reports a dictionary that fails to load, once', () => {
    const warnings: string[] = [];
    onDictionaryProblem((m) => warnings.push(m));
    const t = lazyCedictTranslator({
      id: 'test',
      load: () => {
        throw new Error('Unexpected end of JSON input');
      },
    });
    t.gloss('天气');
    t.gloss('城市');
    onDictionaryProblem(() => undefined);
    expect(warnings).toEqual([
      'CC-CEDICT cannot be used (Unexpected end of JSON input); Chinese is not glossed',
    ]);
  });
});

const doc = (server: string, name: string, description: string): SearchDoc => ({
  key: `${server}/${name}`,
  server,
  name,
  description,
});

const CATALOG: SearchDoc[] = [
  doc('weather', 'get_forecast', 'Get the weather forecast for a city.'),
  doc('amap', 'maps_weather', '根据城市名称查询天气'),
  doc('files', 'read_file', 'Read a file.'),
];

describe('search with a translator', () => {
  const translated = buildSearchIndex(CATALOG, { translator: createDictionaryTranslator('test', DICT) });

  it('finds an English tool for a Chinese query', () => {
    expect(translated.search('天气预报')[0]?.key).toBe('weather/get_forecast');
  });

  it('finds a Chinese-described tool for an English query', () => {
    expect(translated.search('city weather').map((h) => h.key)).toContain('amap/maps_weather');
  });

  it.each([
    ['without a translator', NO_TRANSLATOR],
    ['without the dictionary', lazyCedictTranslator({ id: 'none', load: () => undefined })],
  ])('works %s: CJK bigrams still match, English is unchanged', (_, translator) => {
    const plain = buildSearchIndex(CATALOG, { translator });
    expect(plain.search('城市天气')[0]?.key).toBe('amap/maps_weather');
    expect(plain.search('天气预报').map((h) => h.key)).not.toContain('weather/get_forecast');
    expect(plain.search('read a file')).toEqual(translated.search('read a file'));
  });
});
