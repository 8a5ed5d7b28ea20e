// What a caller's scopes allow (docs/security.md, "Tokens"): `search` (search, browse, describe),
// `call` (also call_tool, resources and prompts), `admin` (also approvals, audit, operator views).
import { CarteError } from '../../errors.js';
import type { CallerContext } from './context.js';

export type Scope = 'search' | 'call' | 'admin';
const RANK: Record<string, number> = { search: 1, call: 2, admin: 3, '*': 3 };

/** Whether `scopes` include `needed` (admin implies call implies search; `*` is everything). */
export function scopeAllows(scopes: readonly string[], needed: Scope): boolean {
  return scopes.some((s) => (RANK[s] ?? 0) >= RANK[needed]!);
}

/** Throws `denied` when the caller lacks the scope, saying which one `what` needs. */
export function requireScope(ctx: CallerContext, needed: Scope, what: string): void {
  if (scopeAllows(ctx.scopes, needed)) return;
  throw new CarteError(
    'denied',
    `${what} needs the ${needed} scope; this caller has ${ctx.scopes.join(', ') || 'none'} (ask for a token with --scope ${needed})`,
  );
}
