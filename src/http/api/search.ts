// GET /me (who the token is) and GET /search (ranked tools, with how the search was answered).
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { HttpDeps, HttpEnv } from '../shared/types.js';
import { callerOf } from './context.js';
import { AUTH_ERRORS, errors, json } from './schemas.js';

/** Results per search unless `limit` says otherwise, and the most `limit` may ask for. */
export const SEARCH_LIMITS = { default: 10, max: 50 } as const;

const me = createRoute({
  method: 'get',
  path: '/me',
  summary: 'The caller: its project and scopes',
  responses: {
    200: json(z.object({ project: z.string(), scopes: z.array(z.string()) }), 'The caller'),
    ...errors(401),
  },
});

const ResultSchema = z
  .object({
    key: z.string(),
    server: z.string(),
    name: z.string(),
    title: z.string().optional(),
    summary: z.string(),
    relevance: z.number(),
  })
  .openapi('SearchResult');

const search = createRoute({
  method: 'get',
  path: '/search',
  summary: 'Search tools by what they do',
  request: {
    query: z.object({
      q: z.string().min(1).openapi({ example: 'add two numbers' }),
      limit: z.coerce.number().int().min(1).max(SEARCH_LIMITS.max).optional(),
    }),
  },
  responses: {
    200: json(
      z.object({ results: z.array(ResultSchema), meta: z.record(z.string(), z.unknown()) }),
      'Ranked results; meta says how the search was answered (strategy, fallbacks)',
    ),
    ...errors(400, ...AUTH_ERRORS),
  },
});

export function registerSearch(app: OpenAPIHono<HttpEnv>, deps: HttpDeps): void {
  app.openapi(me, (c) => {
    const caller = callerOf(c);
    return c.json({ project: caller.projectId, scopes: [...caller.scopes] }, 200);
  });
  app.openapi(search, async (c) => {
    const { q, limit } = c.req.valid('query');
    // People's syntax (phrases, server:, tag:, category:, -word, +word, OR), as the CLI reads it.
    const outcome = await deps.gateway.searchToolsWithMeta(callerOf(c), q, {
      limit: limit ?? SEARCH_LIMITS.default,
      syntax: true,
    });
    return c.json({ results: outcome.results, meta: { ...outcome.meta } }, 200);
  });
}
