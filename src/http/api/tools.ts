// One tool: GET /tools/{server}/{tool} (its detail, call class and category) and
// POST /tools/{server}/{tool}/call (needs the call scope). A tool another project owns answers
// exactly like an unknown one: the gateway decides both.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { HttpDeps, HttpEnv } from '../shared/types.js';
import { callerOf } from './context.js';
import { AUTH_ERRORS, errors, json, ToolParams } from './schemas.js';

const ToolDetailSchema = z
  .object({
    key: z.string(),
    server: z.string(),
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: z.unknown(),
    outputSchema: z.unknown().optional(),
    annotations: z.unknown().optional(),
    class: z.enum(['read', 'write', 'destructive']),
    category: z.string(),
    tags: z.array(z.string()),
    useCases: z.array(z.string()).optional(),
    signature: z.string().optional(),
    serverStatus: z.string(),
    firstSeenAt: z.string(),
    lastSeenAt: z.string(),
  })
  .passthrough()
  .openapi('ToolDetail');

const detail = createRoute({
  method: 'get',
  path: '/tools/{server}/{tool}',
  summary:
    'One tool: description, schemas, annotations, call class, category, tags, use cases and its TypeScript signature',
  request: { params: ToolParams },
  responses: { 200: json(ToolDetailSchema, 'The tool'), ...errors(...AUTH_ERRORS, 404) },
});

const CallResultSchema = z
  .object({
    isError: z.boolean().optional(),
    content: z.array(z.unknown()).optional(),
    structuredContent: z.unknown().optional(),
  })
  .passthrough()
  .openapi('CallResult');

const call = createRoute({
  method: 'post',
  path: '/tools/{server}/{tool}/call',
  summary: 'Call a tool (call scope); the upstream result passes through unchanged',
  request: {
    params: ToolParams,
    body: {
      content: {
        'application/json': {
          schema: z.object({ arguments: z.record(z.string(), z.unknown()).default({}) }),
        },
      },
      required: true,
    },
  },
  responses: {
    200: json(CallResultSchema, "The upstream's result; a tool's own failure is isError: true"),
    ...errors(400, ...AUTH_ERRORS, 404, 409, 429, 502, 504),
  },
});

export function registerTools(app: OpenAPIHono<HttpEnv>, deps: HttpDeps): void {
  app.openapi(detail, async (c) => {
    const { server, tool } = c.req.valid('param');
    return c.json(await deps.gateway.describeToolFiled(callerOf(c), `${server}/${tool}`), 200);
  });
  app.openapi(call, async (c) => {
    const { server, tool } = c.req.valid('param');
    const { arguments: args } = c.req.valid('json');
    const result = await deps.gateway.callTool(callerOf(c), `${server}/${tool}`, args, {
      signal: c.req.raw.signal,
    });
    return c.json(result, 200);
  });
}
