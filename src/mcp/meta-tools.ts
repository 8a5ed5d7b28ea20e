/**
 * The four fixed meta-tools Carte shows an agent instead of every upstream tool. Their whole
 * listing must stay under 500 tokens for any catalog (pinned by a test with the longest digest);
 * descriptions are short on purpose.
 */
// No `minimum` (50): the gateway refuses less with a message naming it, and the listing is
// smaller by 12 tokens in every session.
const maxTokens = { type: 'integer' } as const;

export const META_TOOLS = [
  {
    name: 'search_tools',
    description:
      'Search all tools in plain words; returns ranked {key, server, name, summary, relevance}. For a multi-step task, pass one query per step as an array for one merged ranking.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
          description: 'What you need, in words',
        },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Default 8' },
        server: { type: 'string', description: 'Only this server' },
        maxTokens,
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'browse_tools',
    description:
      'Browse the menu. No arguments: hot tools, categories with counts and examples, servers. A category and/or server: its tools, paged by cursor.',
    inputSchema: {
      type: 'object',
      properties: {
        category: { type: 'string' },
        server: { type: 'string' },
        cursor: { type: 'string' },
        maxTokens,
      },
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'describe_tool',
    description: "One tool's full definition (input and output schemas, annotations) by key.",
    inputSchema: {
      type: 'object',
      properties: { key: { type: 'string', description: 'server/tool' }, maxTokens },
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

/** The listing with the catalog's digest (gateway `catalogDigest`): the long one for search, the short for browse. */
export function metaTools(digest: { long: string; short: string }): Record<string, unknown>[] {
  return META_TOOLS.map((t) => {
    if (t.name === 'search_tools') return { ...t, description: `${t.description} ${digest.long}` };
    if (t.name === 'browse_tools') return { ...t, description: `${t.description} ${digest.short}` };
    return { ...t };
  });
}

/**
 * run_code (issue 43), listed only under `exposure.code.enabled` in meta mode: outside META_TOOLS
 * for the same reason as REQUEST_SERVER. Short on purpose: the listing stays under 550 tokens.
 */
export const RUN_CODE = {
  name: 'run_code',
  description:
    'JS async function body: await call(key, args), search(query). Returns its result only. format "typescript": signatures.',
  inputSchema: {
    type: 'object',
    properties: { code: { type: 'string' } },
    required: ['code'],
  },
} as const;

/** The tools that can answer with TypeScript signatures when run_code is listed. */
const SIGNING_TOOLS: ReadonlySet<string> = new Set(['search_tools', 'browse_tools', 'describe_tool']);

/** The listing with run_code: `format` on the tools that give signatures, then run_code itself. */
export function withRunCode(tools: Record<string, unknown>[]): Record<string, unknown>[] {
  const signing = tools.map((t) => {
    if (!SIGNING_TOOLS.has(t.name as string)) return t;
    const schema = t.inputSchema as { properties: Record<string, unknown> };
    const properties = { ...schema.properties, format: { const: 'typescript' } };
    return { ...t, inputSchema: { ...schema, properties } };
  });
  return [...signing, { ...RUN_CODE }];
}

/**
 * The optional fifth tool, listed only under `registration.agentRequests: true`: outside
 * META_TOOLS so the four-tool listing stays byte-identical when it is off.
 */
export const REQUEST_SERVER = {
  name: 'request_server',
  description:
    'Propose a new MCP server (Carte format). Answers approved (its tools become searchable), pending (a person must approve) or why it is refused. Secrets only as ${env:NAME}.',
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      command: { type: 'string' },
      args: { type: 'array', items: { type: 'string' } },
      env: { type: 'object' },
      url: { type: 'string' },
      headers: { type: 'object' },
      description: { type: 'string' },
      reason: { type: 'string', description: 'For the person approving' },
    },
    required: ['id'],
  },
  annotations: { destructiveHint: false },
} as const;
