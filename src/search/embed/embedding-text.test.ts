import { describe, expect, it } from 'vitest';
import {
  cjkShare,
  firstSentence,
  latinPart,
  queryEmbeddingText,
  toolEmbeddingText,
} from './embedding-text.js';

const tool = (name: string, description?: string, title?: string) => ({
  key: `s/${name}`,
  server: 's',
  name,
  description,
  title,
});

describe('embedding text', () => {
  it.each([
    [
      tool('get_weather', 'Get the weather for a city. Args: city (str).'),
      'get weather: Get the weather for a city.',
    ],
    [tool('get_weather', 'Get the weather', 'Weather now'), 'Weather now: Get the weather'],
    [tool('maps_weather', '根据城市名称查询天气'), 'maps weather'],
    [tool('get-tickets', '查询12306余票信息。'), 'get tickets'],
    [tool('fetch', ''), 'fetch'],
    [tool('x', `${'word '.repeat(100)}end.`), `x: ${'word '.repeat(40).trim()}`],
  ])('tool %j -> %j', (doc, expected) => expect(toolEmbeddingText(doc)).toBe(expected));

  it.each([
    ['find the weather in Paris', 'find the weather in Paris'],
    ['查询北京的天气', undefined],
    ['使用 weather api 查询 the city forecast', 'weather api the city forecast'],
    ['ok', 'ok'],
    ['   ', undefined],
  ])('query %j -> %j', (q, expected) => expect(queryEmbeddingText(q)).toBe(expected));

  it.each([
    ['abc', 0],
    ['天气', 1],
    ['ab天气', 0.5],
    ['123', 0],
  ])('cjkShare(%j) = %d', (t, share) => expect(cjkShare(t)).toBe(share));

  it('keeps the Latin part only when three words survive', () => {
    expect(latinPart('获取 the weather now 天气')).toBe('the weather now');
    expect(latinPart('获取 weather 天气')).toBe('');
  });

  it('cuts at the first sentence end followed by a space', () => {
    expect(firstSentence('Read a file. Then more.')).toBe('Read a file.');
    expect(firstSentence('Open v1.2 docs')).toBe('Open v1.2 docs');
  });
});
