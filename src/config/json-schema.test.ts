import { describe, expect, it } from 'vitest';
import { configJsonSchema } from './index.js';

describe('configJsonSchema', () => {
  const schema = configJsonSchema();

  it('matches the committed schema/carte.schema.json (run `npm run build` to regenerate)', async () => {
    await expect(`${JSON.stringify(schema, null, 2)}\n`).toMatchFileSnapshot(
      '../../schema/carte.schema.json',
    );
  });

  it('names its dialect and title and describes every property', () => {
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Carte configuration',
    });
    const undocumented: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const { properties } = node as { properties?: Record<string, { description?: string }> };
      for (const [key, value] of Object.entries(properties ?? {})) {
        if (!value.description) undocumented.push(`${path}.${key}`);
        walk(value, `${path}.${key}`);
      }
      for (const [key, value] of Object.entries(node)) if (key !== 'properties') walk(value, path);
    };
    walk(schema, '');
    expect(undocumented).toEqual([]);
  });
});
