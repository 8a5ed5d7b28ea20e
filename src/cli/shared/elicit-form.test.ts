import { describe, expect, it } from 'vitest';
import { parseField, withDefaults } from './elicit-form.js';

describe('parseField', () => {
  it('reads each primitive type and refuses what does not fit', () => {
    expect(parseField({ type: 'integer', minimum: 0 }, ' 42 ')).toEqual({ value: 42 });
    expect(parseField({ type: 'integer' }, '4.5')).toEqual({ error: 'answer a whole number' });
    expect(parseField({ type: 'number', maximum: 1 }, '2')).toEqual({ error: 'at most 1' });
    expect(parseField({ type: 'boolean' }, 'Yes')).toEqual({ value: true });
    expect(parseField({ type: 'boolean' }, 'maybe')).toEqual({ error: 'answer yes or no' });
    expect(parseField({ type: 'string', enum: ['a', 'b'] }, 'c')).toEqual({ error: 'answer one of a, b' });
    expect(parseField({ type: 'string', oneOf: [{ const: 'x', title: 'X' }] }, 'x')).toEqual({ value: 'x' });
    expect(parseField({ type: 'array', items: { enum: ['a', 'b'] } }, 'a, b')).toEqual({ value: ['a', 'b'] });
    expect(parseField({ type: 'string', maxLength: 2 }, 'abc')).toEqual({ error: 'at most 2 characters' });
    expect(parseField({ type: 'string' }, '  ')).toEqual({});
  });
});

describe('withDefaults', () => {
  const form = (properties: Record<string, Record<string, unknown>>, required?: string[]) => ({
    serverId: 's',
    message: 'm',
    requestedSchema: { type: 'object' as const, properties, ...(required ? { required } : {}) },
  });

  it('sends each default that fits its field, and leaves out optional fields without one', () => {
    const answer = withDefaults(
      form({
        n: { type: 'integer', default: 3 },
        bad: { type: 'integer', default: 'three' },
        b: { type: 'boolean', default: false },
        free: { type: 'string' },
      }),
    );
    expect(answer).toEqual({ action: 'accept', content: { n: 3, b: false } });
  });

  it('declines when a required field has no default', () => {
    expect(withDefaults(form({ name: { type: 'string' } }, ['name']))).toEqual({ action: 'decline' });
  });
});
