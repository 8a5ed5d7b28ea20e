import { z } from 'zod';
import type { ConfigFormat } from '../formats/detect-format.js';
import { CLIENT_FILE_SCHEMAS } from './json-schema-formats.js';
import { ConfigSchema } from '../schema/schema.js';

const TITLES: Record<ConfigFormat, string> = {
  carte: 'Carte configuration',
  claude: 'Carte: mcpServers files (Claude Desktop, Cursor, Windsurf, Cline, Gemini CLI)',
  vscode: 'Carte: VS Code mcp.json files',
};

/**
 * The JSON Schema (draft 2020-12) of a config format, generated from the zod schemas, for editor
 * completion: Carte's own format by default, or what Carte reads from a client's file. It
 * describes files as written: defaults are shown, not required. Point a YAML file at it with
 * `# yaml-language-server: $schema=<path to schema/carte.schema.json>`.
 */
export function configJsonSchema(format: ConfigFormat = 'carte'): Record<string, unknown> {
  const schema = format === 'carte' ? ConfigSchema : CLIENT_FILE_SCHEMAS[format];
  const { $schema, ...body } = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' });
  return { $schema, title: TITLES[format], ...body };
}
