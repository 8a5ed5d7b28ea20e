// The menu's tiers (docs/menu.md): GET /hot (T0), GET /categories (T1), GET /tools (T2, one page
// of a category's or a server's tools, paged by cursor). All answer what the caller's project sees.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { CarteError } from '../../errors.js';
import type { BrowseResult, MenuAnswer, ToolPage } from '../../gateway/index.js';
import type { HttpDeps, HttpEnv } from '../shared/types.js';
import { callerOf } from './context.js';
import { AUTH_ERRORS, errors, json, ToolSummarySchema } from './schemas.js';

/**
 * The menu routes read the menu for a page (the web menu's home, a category, the servers): no
 * `browse` audit row, which records an agent's browse_tools (docs/security.md, "Audit log").
 */
export const NOT_AUDITED = { audit: false } as const;

const hot = createRoute({
  method: 'get',
  path: '/hot',
  summary: 'The hot list: pinned tools, then the most used',
  responses: {
    200: json(z.object({ tools: z.array(ToolSummarySchema) }), 'The hot list'),
    ...errors(...AUTH_ERRORS),
  },
});

const CategorySchema = z
  .object({
    id: z.string(),
    label: z.string(),
    toolCount: z.number().int(),
    serverCount: z.number().int(),
    examples: z.array(z.string()),
  })
  .openapi('Category');

const categories = createRoute({
  method: 'get',
  path: '/categories',
  summary: 'Categories with their tool and server counts',
  responses: {
    200: json(z.object({ categories: z.array(CategorySchema) }), 'The categories'),
    ...errors(...AUTH_ERRORS),
  },
});

const tools = createRoute({
  method: 'get',
  path: '/tools',
  summary: "One page of a category's or a server's tools",
  request: {
    query: z.object({
      category: z.string().min(1).optional(),
      server: z.string().min(1).optional(),
      cursor: z.string().min(1).optional(),
    }),
  },
  responses: {
    200: json(
      z
        .object({
          tools: z.array(ToolSummarySchema),
          total: z.number().int(),
          offset: z.number().int(),
          nextCursor: z.string().optional(),
          usable: z.boolean().optional(),
          reason: z.string().optional(),
        })
        .openapi('ToolPage'),
      'One page; pass nextCursor back for the next (a catalog change makes a cursor stale: 400)',
    ),
    ...errors(400, ...AUTH_ERRORS, 404),
  },
});

export function registerMenu(app: OpenAPIHono<HttpEnv>, deps: HttpDeps): void {
  app.openapi(hot, async (c) =>
    c.json({ tools: menu(await deps.gateway.browseTools(callerOf(c), {}, NOT_AUDITED)).hot }, 200),
  );
  app.openapi(categories, async (c) => {
    const answer = menu(await deps.gateway.browseTools(callerOf(c), {}, NOT_AUDITED));
    const list = answer.categories.map((k) => ({
      id: k.id,
      label: k.label,
      toolCount: k.tools,
      serverCount: k.servers,
      examples: k.examples,
    }));
    return c.json({ categories: list }, 200);
  });
  app.openapi(tools, async (c) => {
    const { category, server, cursor } = c.req.valid('query');
    if (category === undefined && server === undefined)
      throw new CarteError('bad_input', 'GET /api/v1/tools needs a category or a server (or both)');
    const req = {
      ...(category ? { category } : {}),
      ...(server ? { server } : {}),
      ...(cursor ? { cursor } : {}),
    };
    const p = page(await deps.gateway.browseTools(callerOf(c), req, NOT_AUDITED));
    const { tools: list, total, offset, nextCursor, usable, reason } = p;
    return c.json({ tools: list, total, offset, nextCursor, usable, reason }, 200);
  });
}

/** The menu tiers; browse answers a page only when asked for a category or a server. */
export function menu(r: BrowseResult): MenuAnswer {
  if (r.kind === 'menu') return r;
  throw new CarteError('internal', 'internal error (a bug): browse_tools {} answered a page');
}

function page(r: BrowseResult): ToolPage {
  if (r.kind === 'tools') return r;
  throw new CarteError(
    'internal',
    'internal error (a bug): browse_tools {category|server} answered the menu',
  );
}
