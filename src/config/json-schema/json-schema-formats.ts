import { z } from 'zod';
import { CARTE_SERVER_KEYS } from '../formats/dialects.js';
import { RemoteServerObject, StdioServerObject } from '../schema/schema.js';

const SCHEMA_KEY = z
  .string()
  .optional()
  .describe('Path or URL of this JSON Schema, for editor completion; Carte ignores it.');

/** Carte's own server keys, all optional here: which of command or url applies depends on the server. */
function carteServerShape(): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = { ...StdioServerObject.shape, ...RemoteServerObject.shape };
  return Object.fromEntries(CARTE_SERVER_KEYS.map((k) => [k, shape[k]!.optional()]));
}

const TYPE = z
  .enum(['stdio', 'http', 'streamable-http', 'sse'])
  .optional()
  .describe(
    'How the server is reached: "stdio" needs "command"; "http" (Streamable HTTP, falling back to SSE), "streamable-http" and "sse" need an endpoint.',
  );

const ClaudeServer = z
  .looseObject({
    ...carteServerShape(),
    type: TYPE,
    disabled: z
      .boolean()
      .optional()
      .describe('Claude Desktop, Cursor, Cline, Windsurf: true keeps the server off, like "enabled": false.'),
    timeout: z
      .int()
      .positive()
      .optional()
      .describe(
        'Gemini CLI: the call timeout in milliseconds, read as "timeoutMs". Under 1000 it is ignored with a warning (Cline writes seconds here); "timeoutMs" wins when both are given.',
      ),
    httpUrl: z
      .string()
      .min(1)
      .optional()
      .describe('Gemini CLI: a Streamable HTTP endpoint, read as "url" with transport "streamable-http".'),
    serverUrl: z
      .string()
      .min(1)
      .optional()
      .describe('Windsurf: the endpoint of a remote server, read as "url".'),
  })
  .describe('One server; other keys are ignored with a warning.');

const VscodeServer = z
  .looseObject({
    ...carteServerShape(),
    type: TYPE,
    envFile: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A .env file whose variables are added to "env" (whose own values win); relative to this file\'s folder. May use ${workspaceFolder}, ${env:NAME} and ${dataDir}. A missing file is an error.',
      ),
  })
  .describe('One server; other keys are ignored with a warning.');

/** What Carte reads from the client formats it accepts, by format. */
export const CLIENT_FILE_SCHEMAS = {
  claude: z
    .looseObject({
      $schema: SCHEMA_KEY,
      mcpServers: z
        .record(z.string(), ClaudeServer)
        .default({})
        .describe(
          'The servers by id; an id Carte cannot use is normalised (e.g. "My Server" -> "my-server").',
        ),
    })
    .describe(
      'A Claude Desktop, Cursor, Windsurf, Cline or Gemini CLI file as Carte reads it: only "mcpServers"; other keys are ignored with a warning.',
    ),
  vscode: z
    .looseObject({
      $schema: SCHEMA_KEY,
      servers: z
        .record(z.string(), VscodeServer)
        .default({})
        .describe(
          'The servers by id; an id Carte cannot use is normalised (e.g. "My Server" -> "my-server").',
        ),
      inputs: z
        .array(z.unknown())
        .optional()
        .describe(
          'VS Code prompts; Carte does not read them, and ${input:...} is an error (use ${env:NAME}).',
        ),
    })
    .describe('A VS Code mcp.json as Carte reads it: "servers"; other keys are ignored with a warning.'),
};
