import { describe, expect, it } from 'vitest';
import { tokenize } from './index.js';

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
