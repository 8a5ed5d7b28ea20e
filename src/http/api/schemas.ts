// Schemas shared by the REST routes: the error body, a tool line, and helpers that keep each
// route's OpenAPI description short. The OpenAPI document is generated from these.
import { z } from '@hono/zod-openapi';

/** `{error: {code, message}}`, the body of every error (status from src/errors.ts). */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'unknown_tool' }),
      message: z.string().openapi({ example: 'unknown tool "github/create_isue"' }),
    }),
  })
  .openapi('Error');

/** A tool in the hot list, a page of tools or the search results. */
export const ToolSummarySchema = z
  .object({
    key: z.string().openapi({ example: 'everything/echo' }),
    title: z.string().optional(),
    summary: z.string(),
    pinned: z.literal(true).optional(),
  })
  .openapi('ToolSummary');

/** Path parameters of one tool: its key is `{server}/{tool}`. */
export const ToolParams = z.object({
  server: z
    .string()
    .min(1)
    .openapi({ param: { name: 'server', in: 'path' }, example: 'everything' }),
  tool: z
    .string()
    .min(1)
    .openapi({ param: { name: 'tool', in: 'path' }, example: 'echo' }),
});

/** A JSON response with a description. */
export function json<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description } as const;
}

/** The error answers a route can give, by status (documented; the body is always ErrorSchema). */
export function errors(...statuses: (400 | 401 | 403 | 404 | 409 | 429 | 502 | 504)[]) {
  const why: Record<number, string> = {
    400: 'Bad input (names the bad value)',
    401: 'No valid token, and no anonymous project',
    403: 'The token lacks the scope',
    404: 'Unknown (or not visible to this project: answered alike)',
    409: 'The server is disabled',
    429: 'The server is busy; retry',
    502: 'The upstream failed',
    504: 'The upstream timed out',
  };
  return Object.fromEntries(statuses.map((s) => [s, json(ErrorSchema, why[s]!)]));
}

/** Every protected route documents these. */
export const AUTH_ERRORS = [401, 403] as const;
