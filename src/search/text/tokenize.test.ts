import { describe, expect, it } from 'vitest';
import { tokenize } from '../index.js';
import { tokenizeUnicode } from './tokenize.js';

describe('tokenize', () => {
  it.each([
    ['read_file', ['read', 'file']],
    ['getUserName', ['get', 'user', 'name']],
    ['HTMLParser', ['html', 'parser']],
    ['parseHTML', ['parse', 'html']],
    ['list-directory', ['list', 'directory']],
    ['api.v2.list', ['api', 'v', '2', 'list']],
    ['base64encode', ['base', '64', 'encode']],
    ['S3Bucket', ['s', '3', 'bucket']],
    ['  Search the WEB!  ', ['search', 'the', 'web']],
    ['café résumé', ['cafe', 'resume']],
    ['ｗｅｂ　ｓｅａｒｃｈ', ['web', 'search']],
    ['@upstash/context7-mcp', ['upstash', 'context', '7', 'mcp']],
    ['', []],
    ['--- ...', []],
  ])('%j -> %j', (text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });

  it.each([
    ['天气', ['天气']],
    ['查询天气', ['查询', '询天', '天气']],
    ['天', ['天']],
    ['获取weather数据', ['获取', 'weather', '数据']],
    ['ファイルを読む', ['ファ', 'ァイ', 'イル', 'ルを', 'を読', '読む']],
  ])('CJK %j -> bigrams %j', (text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });
});

/** 5,000 texts of up to `maxLength - 1` symbols from `symbols`, from a fixed seed (reproducible). */
function randomTexts(symbols: readonly string[], seed: number, maxLength: number): string[] {
  let state = seed;
  const next = (): number => (state = (state * 1103515245 + 12345) % 2 ** 31);
  return Array.from({ length: 5000 }, () => {
    const len = next() % maxLength;
    let text = '';
    for (let i = 0; i < len; i++) text += symbols[next() % symbols.length];
    return text;
  });
}

describe('tokenize: the ASCII scanner agrees with the general path', () => {
  const ALPHABET = 'aAbBzZ09_-. /xXyY1';
  it('on random ASCII identifiers and phrases', () => {
    for (const text of randomTexts([...ALPHABET], 7, 14)) {
      expect(tokenize(text), JSON.stringify(text)).toEqual(tokenizeUnicode(text));
    }
  });

  it('on random mixed-script text (the whitespace-split path)', () => {
    const MIXED = [
      'a',
      'B',
      '1',
      ' ',
      '_',
      'é',
      'É',
      '\u0301',
      '天',
      '气',
      'ァ',
      '\u00a0',
      '\u3000',
      'Ａ',
      '１',
      '—',
      '\n',
      'ß',
      'İ',
      '¨',
      '⑴',
    ];
    for (const text of randomTexts(MIXED, 11, 12)) {
      expect(tokenize(text), JSON.stringify(text)).toEqual(tokenizeUnicode(text));
    }
  });

  it.each(['HTMLParser2Go', 'getHTTPResponseCode', 'ABCdef', 'aBCd', 'v2API', 'X', 'iOS17Beta', 'A1B2c3D'])(
    '%j',
    (text) => {
      expect(tokenize(text)).toEqual(tokenizeUnicode(text));
    },
  );
});
