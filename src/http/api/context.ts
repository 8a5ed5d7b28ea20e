// The caller of a request, as the auth middleware (src/http/auth.ts) set it.
import type { Context } from 'hono';
import { CarteError } from '../../errors.js';
import type { CallerContext } from '../../gateway/index.js';
import type { HttpEnv } from '../shared/types.js';

/** The request's caller; its absence is a wiring bug (a route mounted outside the auth middleware). */
export function callerOf(c: Context<HttpEnv>): CallerContext {
  const caller = c.get('caller') as CallerContext | undefined;
  if (caller === undefined)
    throw new CarteError('internal', `internal error (a bug): ${c.req.path} ran without the auth middleware`);
  return caller;
}
