import { describe, expect, it } from 'vitest';
import { identityStemmer, pluralStemmer, porterStemmer } from './stem.js';
import { analyze } from './analyze.js';

describe('stemmers', () => {
  it.each([
    ['files', 'file'],
    ['queries', 'queri'],
    ['creating', 'creat'],
    ['created', 'creat'],
    ['creates', 'creat'],
    ['s3', 's3'],
    ['天气', '天气'],
    ['go', 'go'],
  ])('porter %s -> %s', (word, stem) => expect(porterStemmer(word)).toBe(stem));

  it.each([
    ['files', 'file'],
    ['queries', 'query'],
    ['boxes', 'boxe'],
    ['class', 'class'],
    ['status', 'status'],
    ['bus', 'bus'],
    ['creating', 'creating'],
  ])('plural %s -> %s', (word, stem) => expect(pluralStemmer(word)).toBe(stem));

  it('identity keeps words', () => expect(identityStemmer('running')).toBe('running'));

  it('analyze drops stop words and stems what is left', () => {
    expect(analyze('Please help me read the files', porterStemmer)).toEqual(['read', 'file']);
    expect(analyze('the files', porterStemmer, false)).toEqual(['the', 'file']);
  });
});
