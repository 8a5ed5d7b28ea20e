import { describe, expect, it } from 'vitest';
import { callClass } from './call-class.js';

describe('callClass', () => {
  it.each([
    [{ readOnlyHint: true }, undefined, undefined, 'read'],
    [{ destructiveHint: false }, undefined, undefined, 'write'],
    [{}, undefined, undefined, 'destructive'],
    [undefined, undefined, undefined, 'destructive'],
    [{ readOnlyHint: 'yes' }, undefined, undefined, 'destructive'],
    [{}, true, undefined, 'write'],
    [{ destructiveHint: true }, true, undefined, 'destructive'],
    [{ readOnlyHint: true }, false, undefined, 'destructive'],
    [{ readOnlyHint: true }, false, 'read', 'read'],
    [{}, undefined, 'write', 'write'],
  ] as const)('%j, trusted %s, rule %s: %s', (annotations, trusted, rule, expected) => {
    expect(callClass(annotations, trusted, rule)).toBe(expected);
  });
});
