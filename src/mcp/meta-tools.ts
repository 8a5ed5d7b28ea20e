/**
 * The four fixed meta-tools Carte shows an agent instead of every upstream tool. Their whole
 * listing must stay under 500 tokens (pinned by a test); descriptions are short on purpose.
 */
export const META_TOOLS = [
  {
    name: 'search_tools',
    description:
      'Search all available tools in plain words. Returns ranked tools {key, server, name, summary, relevance}. For a multi-step task, pass one query per step as an array to get one merged ranking.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
          description: 'What you need, in words',
        },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Default 8' },
        server: { type: 'string', description: 'Only this server' },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'browse_tools',
    description:
      'Browse the menu: no server lists servers with tool counts and status; a server lists its tools, paged by cursor.',
    inputSchema: {
      type: 'object',
      properties: { server: { type: 'string' }, cursor: { type: 'string' } },
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'describe_tool',
    description: "Get one tool's full definition (input and output schema, annotations) by key.",
    inputSchema: {
      type: 'object',
      properties: { key: { type: 'string', description: 'server/tool' } },
      required: ['key'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'call_tool',
    description:
      "Call a tool by key with its arguments (checked against its input schema). Returns the tool's own result.",
    inputSchema: {
      type: 'object',
      properties: { key: { type: 'string', description: 'server/tool' }, arguments: { type: 'object' } },
      required: ['key'],
    },
  },
] as const;

export type MetaToolName = (typeof META_TOOLS)[number]['name'];
