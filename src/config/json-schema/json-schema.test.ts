import { describe, expect, it } from 'vitest';
import { configJsonSchema, type ConfigFormat } from '../index.js';

const FILES: [ConfigFormat, string, string][] = [
  ['carte', 'carte.schema.json', 'Carte configuration'],
  [
    'claude',
    'mcp-servers.schema.json',
    'Carte: mcpServers files (Claude Desktop, Cursor, Windsurf, Cline, Gemini CLI)',
  ],
  ['vscode', 'vscode-mcp.schema.json', 'Carte: VS Code mcp.json files'],
];

describe.each(FILES)('configJsonSchema(%j)', (format, file, title) => {
  const schema = configJsonSchema(format);

  it(`matches the committed schema/${file} (run \`npm run build\` to regenerate)`, async () => {
    await expect(`${JSON.stringify(schema, null, 2)}\n`).toMatchFileSnapshot(`../../../schema/${file}`);
  });

  it('names its dialect and title and describes every property', () => {
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', title });
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

describe('client file schemas', () => {
  const servers = (format: ConfigFormat, section: string) => {
    const props = (configJsonSchema(format).properties ?? {}) as Record<
      string,
      { additionalProperties: { properties: object } }
    >;
    return Object.keys(props[section]!.additionalProperties.properties);
  };
  const OWN = [
    'timeoutMs',
    'discoveryTimeoutMs',
    'idleTimeoutMs',
    'maxConcurrency',
    'maxQueue',
    'description',
    'enabled',
  ];

  it("list Carte's own keys and each format's own", () => {
    expect(servers('claude', 'mcpServers')).toEqual(
      expect.arrayContaining([...OWN, 'type', 'disabled', 'timeout', 'httpUrl', 'serverUrl']),
    );
    expect(servers('vscode', 'servers')).toEqual(expect.arrayContaining([...OWN, 'type', 'envFile']));
    expect(servers('vscode', 'servers')).not.toContain('timeout');
    expect(servers('claude', 'mcpServers')).not.toContain('transport');
  });
});
