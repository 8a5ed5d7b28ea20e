import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { schemaToTypeScript, toTypeName } from './schema-to-ts.js';
import { fitSignatures, toolSignature } from './signature.js';

/** TypeScript's own parser's complaints about `source` as a declaration file (none when it parses). */
function parseErrors(source: string): string[] {
  const file = ts.createSourceFile('signature.d.ts', source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const diagnostics = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  return diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const OBJECT = {
  type: 'object',
  properties: { path: { type: 'string', description: 'Where */ it is' }, head: { type: 'integer' } },
  required: ['path'],
};

describe('schemaToTypeScript', () => {
  it.each<[string, unknown, string]>([
    ['an empty schema', {}, 'type T = unknown;'],
    ['true and false', { anyOf: [true, false] }, 'type T = unknown;'],
    ['false', false, 'type T = never;'],
    ['a string', { type: 'string', minLength: 2 }, 'type T = string;'],
    ['integer and number', { type: ['integer', 'number'] }, 'type T = number;'],
    ['a nullable type list', { type: ['string', 'null'] }, 'type T = string | null;'],
    ['OpenAPI nullable', { type: 'string', nullable: true }, 'type T = string | null;'],
    ['an enum', { enum: ['a', 'b', 1, null, true] }, 'type T = "a" | "b" | 1 | null | true;'],
    ['an enum with an object', { enum: ['a', { b: 1 }] }, 'type T = unknown;'],
    ['a const', { const: 'x"y' }, 'type T = "x\\"y";'],
    ['an array', { type: 'array', items: { type: 'string' } }, 'type T = string[];'],
    ['an array without items', { type: 'array' }, 'type T = unknown[];'],
    [
      'an array of a union',
      { type: 'array', items: { type: ['string', 'number'] } },
      'type T = (string | number)[];',
    ],
    [
      'a 2020-12 tuple',
      { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
      'type T = [string, number];',
    ],
    [
      'a draft-07 tuple with more',
      { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'boolean' } },
      'type T = [string, ...boolean[]];',
    ],
    [
      'anyOf',
      { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      'type T = string | string[];',
    ],
    ['oneOf', { oneOf: [{ const: 'a' }, { const: 'b' }] }, 'type T = "a" | "b";'],
    [
      'allOf',
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } } },
          { type: 'object', properties: { b: { type: 'number' } } },
        ],
      },
      'type T = { a?: string } & { b?: number };',
    ],
    [
      'a union in an intersection',
      { allOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, { not: {} }] },
      'type T = string | number;',
    ],
    [
      'an object, required and optional, with comments',
      OBJECT,
      'type T = {\n  /** Where *\\/ it is */\n  path: string;\n  head?: number;\n};',
    ],
    ['properties with no type said', { properties: { a: {} } }, 'type T = { a?: unknown };'],
    [
      'names that are not identifiers',
      { type: 'object', properties: { 'a-b': { type: 'string' }, '1x': {} }, required: ['a-b'] },
      'type T = { "a-b": string; "1x"?: unknown };',
    ],
    [
      'a map',
      { type: 'object', additionalProperties: { type: 'number' } },
      'type T = { [key: string]: number };',
    ],
    [
      'properties and more',
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
      'type T = { a?: string; [key: string]: unknown };',
    ],
    ['an empty object', { type: 'object' }, 'type T = Record<string, unknown>;'],
    [
      'a closed empty object',
      { type: 'object', additionalProperties: false },
      'type T = Record<string, never>;',
    ],
    ['an unknown type name', { type: 'date' }, 'type T = unknown;'],
    [
      '$ref to $defs, recursive',
      {
        $defs: {
          'tree node': {
            type: 'object',
            properties: { kids: { type: 'array', items: { $ref: '#/$defs/tree node' } } },
          },
        },
        $ref: '#/$defs/tree node',
      },
      'type T = TTreeNode;\ntype TTreeNode = { kids?: TTreeNode[] };',
    ],
    [
      '$ref to definitions (draft-07)',
      {
        definitions: { id: { type: 'integer' } },
        type: 'object',
        properties: { a: { $ref: '#/definitions/id' }, b: { $ref: '#/definitions/id' } },
      },
      'type T = { a?: TId; b?: TId };\ntype TId = number;',
    ],
    ['$ref to the root', { type: 'object', properties: { next: { $ref: '#' } } }, 'type T = { next?: T };'],
    ['$ref to anything else', { $ref: 'https://example.com/schema.json' }, 'type T = unknown;'],
    ['$ref to a missing definition', { $ref: '#/$defs/nope', $defs: {} }, 'type T = unknown;'],
    ['$ref to an inherited name', { $ref: '#/$defs/constructor', $defs: {} }, 'type T = unknown;'],
  ])('%s', (_, schema, expected) => {
    const out = schemaToTypeScript(schema, 'T');
    expect(out).toBe(expected);
    expect(parseErrors(out)).toEqual([]);
  });

  it('writes comments that cannot end early, on every line', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', description: 'one */ two\n\nthree\u2028four' } },
    };
    expect(schemaToTypeScript(schema, 'T')).toBe(
      'type T = {\n  /**\n   * one *\\/ two\n   *\n   * three\n   * four\n   */\n  a?: string;\n};',
    );
  });

  it('leaves out comments when asked', () => {
    expect(schemaToTypeScript(OBJECT, 'T', false)).toBe('type T = { path: string; head?: number };');
  });

  it('gives up past its depth limit', () => {
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'array', items: deep };
    expect(schemaToTypeScript(deep, 'T')).toBe(`type T = unknown${'[]'.repeat(17)};`);
  });

  it.each([
    ['filesystem/read_text_file', 'FilesystemReadTextFile'],
    ['a.b-c', 'ABC'],
    ['9lives', '_9lives'],
    ['', 'Unnamed'],
    ['日本/x', 'X'],
  ])('names %j as %j', (text, name) => expect(toTypeName(text)).toBe(name));
});

/** Any JSON Schema-like value, with hostile text where text goes. */
const text = fc.oneof(
  fc.string(),
  fc.constantFrom('*/', '/*', '\u2028', '"', '\\', 'constructor', '__proto__', 'a b', '`${x}`', '\n*/\n'),
);
const schemaArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small' },
    fc.boolean(),
    fc.record(
      {
        type: fc.oneof(
          fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'array', 'object', 'bogus'),
          fc.array(fc.constantFrom('string', 'null', 'object', 'array'), { maxLength: 3 }),
        ),
        description: text,
        enum: fc.array(fc.oneof(text, fc.integer(), fc.double(), fc.constant(null), fc.boolean()), {
          maxLength: 4,
        }),
        const: fc.jsonValue(),
        properties: fc.dictionary(text, tie('schema'), { maxKeys: 3 }),
        required: fc.array(text, { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
        items: fc.oneof(tie('schema'), fc.array(tie('schema'), { maxLength: 2 })),
        prefixItems: fc.array(tie('schema'), { maxLength: 2 }),
        anyOf: fc.array(tie('schema'), { maxLength: 3 }),
        oneOf: fc.array(tie('schema'), { maxLength: 3 }),
        allOf: fc.array(tie('schema'), { maxLength: 3 }),
        $ref: fc.oneof(text, fc.constantFrom('#', '#/$defs/a', '#/definitions/b c', '#/$defs/x~1y')),
        $defs: fc.dictionary(fc.oneof(text, fc.constantFrom('a', 'x/y')), tie('schema'), { maxKeys: 2 }),
        definitions: fc.dictionary(fc.oneof(text, fc.constant('b c')), tie('schema'), { maxKeys: 2 }),
      },
      { requiredKeys: [] },
    ),
  ),
})).schema;

describe('schemaToTypeScript, any schema', () => {
  it('always writes TypeScript that parses', () => {
    fc.assert(
      fc.property(schemaArb, text, (schema, name) => {
        const out = schemaToTypeScript(schema, name);
        expect(parseErrors(out)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('always writes tool signatures that parse, at every level', () => {
    fc.assert(
      fc.property(text, fc.option(text), schemaArb, schemaArb, (key, description, input, output) => {
        for (const level of ['full', 'summary', 'bare'] as const) {
          const tool = {
            key,
            inputSchema: input,
            outputSchema: output,
            ...(description ? { description } : {}),
          };
          expect(parseErrors(toolSignature(tool, level))).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('tool signatures', () => {
  const tool = {
    key: 'filesystem/read_text_file',
    description: 'Read a file. Long detail */ here.',
    inputSchema: OBJECT,
    outputSchema: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
  };

  it.each([
    [
      'full',
      '/** Read a file. Long detail *\\/ here. */\ndeclare function call(key: "filesystem/read_text_file", args: {\n  /** Where *\\/ it is */\n  path: string;\n  head?: number;\n}): Promise<{ content: string }>;',
    ],
    [
      'summary',
      '/** Read a file. */\ndeclare function call(key: "filesystem/read_text_file", args: { path: string; head?: number }): Promise<{ content: string }>;',
    ],
    [
      'bare',
      'declare function call(key: "filesystem/read_text_file", args: { path: string; head?: number }): Promise<unknown>;',
    ],
  ] as const)('at %s', (level, expected) => {
    expect(toolSignature(tool, level)).toBe(expected);
  });

  it('types the result unknown without an output schema, and names definitions after the key', () => {
    const withDefs = { key: 'a/b', inputSchema: { $ref: '#/$defs/p', $defs: { p: { type: 'string' } } } };
    expect(toolSignature(withDefs)).toBe(
      'declare function call(key: "a/b", args: ABArgsP): Promise<unknown>;\ntype ABArgsP = string;',
    );
  });

  it('fits a set to a budget: leaner levels first, then fewer tools, with a note', async () => {
    const all = await fitSignatures([tool, tool, tool]);
    expect(all.level).toBe('full');
    const lean = await fitSignatures([tool, tool, tool], 130);
    expect(lean.level).toBe('summary');
    expect(lean.text).toMatch(
      /\n\/\/ cut to fit maxTokens 130: summary; ask with maxTokens \d+ for all of it$/,
    );
    const fewer = await fitSignatures([tool, tool, tool], 80);
    expect([fewer.level, fewer.left]).toEqual(['bare', 1]);
    await expect(fitSignatures([tool], 50)).resolves.toMatchObject({ level: 'bare', left: 0 });
  });
});
