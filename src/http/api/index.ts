/** The REST API under /api/v1 (docs/http.md, "REST API"): zod-described routes and their OpenAPI document. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import { CarteError } from '../../errors.js';
import type { HttpDeps, HttpEnv } from '../shared/types.js';
import { registerActivity } from './activity.js';
import { registerApprovals } from './approvals.js';
import { registerAudit } from './audit.js';
import { registerMenu } from './menu.js';
import { registerOpenApi } from './openapi.js';
import { registerSearch } from './search.js';
import { registerServers } from './servers.js';
import { registerSignIns } from './sign-ins.js';
import { registerTokens } from './tokens.js';
import { registerTools } from './tools.js';

export { AUDIT_LIMITS, parseSince } from './audit.js';
export { SEARCH_LIMITS } from './search.js';

/** The document's `info.version`: the REST API's, not the package's (bumped when a route changes incompatibly). */
export const API_VERSION = '1.0.0';

/** Routes mounted at /api/v1; the auth middleware has set `caller` before any protected route runs. */
export function apiRoutes(deps: HttpDeps): OpenAPIHono<HttpEnv> {
  const app = new OpenAPIHono<HttpEnv>({
    // A request that fails its schema is `bad_input`, thrown to the app's one error mapping.
    // @hono/zod-validator passes the input as `data` on failure too; its hook type leaves it out.
    defaultHook: (result) => {
      if (!result.success) throw badRequest(result.target, result.error, (result as { data?: unknown }).data);
    },
  });
  registerSearch(app, deps);
  registerMenu(app, deps);
  registerTools(app, deps);
  registerServers(app, deps);
  registerSignIns(app, deps);
  registerApprovals(app, deps);
  registerAudit(app, deps);
  registerActivity(app, deps);
  registerTokens(app, deps);
  registerOpenApi(app, API_VERSION);
  return app;
}

/**
 * One sentence naming the first bad value: `query "limit": too big: expected number to be <=50, not "500"`.
 * Only a query or path value is quoted back: a body may hold a tool's arguments.
 */
function badRequest(target: string, error: ZodError, input: unknown): CarteError {
  const issue = error.issues[0];
  const where = target === 'json' ? 'body' : target;
  const field = issue?.path.length ? ` "${issue.path.join('.')}"` : '';
  const message = issue?.message.replace(/^./, (ch) => ch.toLowerCase()) ?? 'invalid';
  const value = (target === 'query' || target === 'param') && issue ? valueAt(input, issue.path) : undefined;
  const given = typeof value === 'string' ? `, not ${JSON.stringify(value)}` : '';
  return new CarteError('bad_input', `${where}${field}: ${message}${given}`, {
    details: { issues: error.issues },
  });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (v, key) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );
}
