// GET /openapi.json (public): the OpenAPI 3.1 document, generated from the routes' zod schemas,
// so the document cannot drift from what the routes accept (docs/http.md lists the same routes).
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { HttpEnv } from '../shared/types.js';

/** Paths the document describes though another file serves them (src/http/login.ts). */
const LOGIN_PATH: RouteConfig = {
  method: 'post',
  path: '/login',
  summary: 'Trade the one-time login code for a 12 h admin token (public)',
  security: [],
  request: {},
  responses: {
    200: { description: '{token, expiresAt, project, scopes}' },
    400: { description: 'Unknown or used code' },
  },
};

/** Adds the bearer scheme, the login route's description and the document's own route. */
export function registerOpenApi(app: OpenAPIHono<HttpEnv>, version: string): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'A Carte token (`carte token create`) or one from the login link',
  });
  app.openAPIRegistry.registerPath(LOGIN_PATH);
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Carte REST API',
      version,
      description: 'Search, browse, describe and call tools; servers, approvals and audit. See docs/http.md.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }],
  });
}
