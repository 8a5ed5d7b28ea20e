import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../search/index.js';
import { toolWords, wordIds } from './tool-words.js';
import { wordOf } from './word-table.js';

const words = (text: string): string[] => wordIds(text).map(wordOf);

/** Characters that take every path: ASCII classes, punctuation NFKC maps, CJK, and the slow ones. */
const TRICKY = [
  ...'aZq0 9_-.\t\n/',
  '\u00a0', // no-break space: whitespace
  '\u3000', // ideographic space
  ...'中文数据ーカかが한가', // CJK runs
  ...'，：。（）、“”—…・', // punctuation, some NFKC-mapped
  ...'éÉßİΣ', // letters beyond ASCII: slow
  'e\u0301', // a combining mark: slow
  ...'ﬁＡ２²①™℃', // NFKC turns these into letters or digits: slow
  'ㄱ', // compatibility jamo: NFKC maps it
  '\u11a8', // a trailing jamo composes with a syllable before it
  '\u309b', // a spacing sound mark: NFKC gives a combining one
  '\uf900', // a compatibility ideograph
  'ｶ', // half-width katakana
  '😀', // astral: slow
  '\ufe0f', // a variation selector (a mark)
  '\u200b', // zero-width space: not whitespace, not a letter
  '\ud800', // a lone surrogate
];

describe('wordIds', () => {
  it.each([
    'getHTMLParser for XMLHttpRequest2 in k8s',
    'snake_case kebab-case dot.case CONSTANT_CASE',
    '查询资料库，返回结果（JSON）。',
    '해외주식 카테고리에 대한 검색 결과를 반환합니다.',
    'Café — naïve résumé “quoted” 😀 emoji',
    'ＡＢＣ full-width ＡＰＩ and ﬁle',
    'カタカナー and ひらがな mixed中文English',
    '',
    '   ',
  ])('gives tokenize’s tokens for %j', (text) => {
    expect(words(text)).toEqual(tokenize(text));
  });

  it('gives tokenize’s tokens for any mix of tricky characters', () => {
    const text = fc.array(fc.constantFrom(...TRICKY), { maxLength: 16 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(text, (t) => {
        expect(words(t)).toEqual(tokenize(t));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives tokenize’s tokens for any string', () => {
    for (const unit of ['binary', 'grapheme', 'binary-ascii'] as const) {
      fc.assert(
        fc.property(fc.string({ unit, maxLength: 40 }), (t) => {
          expect(words(t)).toEqual(tokenize(t));
        }),
      );
    }
  });

  it('tokenizes parameter names as one text joined by spaces', () => {
    const name = fc.array(fc.constantFrom(...TRICKY), { maxLength: 6 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.array(name, { maxLength: 5 }), (paramNames) => {
        const params = toolWords({ name: 'x', paramNames }).params.map(wordOf);
        expect(params).toEqual(tokenize(paramNames.join(' ')));
      }),
    );
  });
});
