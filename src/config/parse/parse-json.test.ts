import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonc } from './parse-json.js';

describe('parseJsonc', () => {
  it.each([
    [
      'comments and trailing commas',
      '/* a */ {"a": [1, 2,], // b\n "b": {"c": null,},}',
      { a: [1, 2], b: { c: null } },
    ],
    ['escapes', '"\\u00e9\\n\\/\\"\\\\"', 'é\n/"\\'],
    ['numbers', '[-0.5e3, 0, 12]', [-500, 0, 12]],
    ['a __proto__ key as data', '{"__proto__": {"x": 1}}', JSON.parse('{"__proto__": {"x": 1}}')],
  ])('reads %s', (_name, text, value) => {
    expect(parseJsonc(text)).toEqual({ ok: true, value });
  });

  it('keeps __proto__ an own key', () => {
    const r = parseJsonc('{"__proto__": 1}');
    expect(r.ok && Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(r.ok && Object.keys(r.value as object)).toEqual(['__proto__']);
  });

  it.each([
    ['{"a": 1 "b": 2}', 'unexpected "\\""; expected "," or "}"', 8],
    ['{a: 1}', 'unexpected "a"; expected a key in double quotes', 1],
    ['[1, 2', 'unexpected end of input; expected "," or "]"', 5],
    ['01', 'unexpected "1" after the end of the document', 1],
    ['"a\tb"', 'control character in a string; escape it', 2],
    ['"\\x"', 'invalid escape "\\x" in a string', 1],
    ['/* open', 'unterminated /* comment', 0],
    ['{"a": tru}', 'unexpected "t"; expected a value', 6],
    ['['.repeat(600), 'nesting is deeper than 512 levels', 513],
  ])('rejects %j', (text, message, offset) => {
    expect(parseJsonc(text)).toEqual({ ok: false, message, offset });
  });

  it('agrees with JSON.parse on any JSON text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(parseJsonc(text)).toEqual({ ok: true, value: JSON.parse(text) });
      }),
    );
  });

  it('accepts only what JSON.parse accepts, for text without comments, trailing commas or duplicates', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'{}[]",:01-.eE tfnrulas\\/\n') }), (text) => {
        const ours = parseJsonc(text);
        let theirs: { ok: boolean; value?: unknown };
        try {
          theirs = { ok: true, value: JSON.parse(text) };
        } catch {
          theirs = { ok: false };
        }
        const jsoncOnly = /\/[/*]|,\s*[}\]]/.test(text);
        if (theirs.ok) expect(ours.ok || ours.message.startsWith('duplicate key')).toBe(true);
        if (ours.ok && !jsoncOnly) expect(ours).toEqual(theirs);
      }),
      { numRuns: 2000 },
    );
  });
});
