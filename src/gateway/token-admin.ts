// Token administration as the faces do it (docs/security.md, "Tokens" and "Audit log"): making
// and revoking a token, each written to the audit log as an `admin` event whose detail names the
// token (id, name, project, scopes, expiry) and who acted; never its secret or hash. The CLI
// (`carte token`) and the REST API (`/api/v1/tokens`, which the web menu's Tokens page uses) call
// these, so no face makes or ends a token unrecorded. A bearer's refused attempt is recorded too,
// with its error code as the outcome: a leaked token trying to mint a successor leaves a trace.
import { quote } from '../errors.js';
import { localCaller, type CallerContext } from './access/context.js';
import {
  createProjectToken,
  createToken,
  revokeProjectToken,
  revokeToken,
  TOKEN_PREFIX,
  type CreatedToken,
  type CreateTokenInput,
  type TokenInfo,
} from './access/tokens.js';
import { auditedAdminAct, type AdminSite } from './trust/admin-act.js';

/** Where tokens are made and ended: the store that holds them and the audit log that records it. */
export type TokenSite = AdminSite;

/** What a revocation did: the token, and whether this call revoked it (false: it already was). */
export interface RevokedToken {
  token: TokenInfo;
  revoked: boolean;
}

/** Makes a token as the local operator (`carte token create`: any configured project, any expiry), audited. */
export function createTokenAudited(
  site: TokenSite,
  input: CreateTokenInput,
  now: number,
): Promise<CreatedToken> {
  return tokenAct(site, localCaller(input.project), {
    verb: 'create',
    asked: askedCreate(input, now),
    run: () => createToken(site.store, input, now),
    done: (made) => ({ token: made }),
  });
}

/** Makes a token of the caller's project (admin; REST and the web menu), audited. */
export function createProjectTokenAudited(
  site: TokenSite,
  caller: CallerContext,
  input: Omit<CreateTokenInput, 'project' | 'projects'>,
  now: number,
): Promise<CreatedToken> {
  return tokenAct(site, caller, {
    verb: 'create',
    asked: askedCreate({ ...input, project: caller.projectId }, now),
    run: () => createProjectToken(site.store, caller, input, now),
    done: (made) => ({ token: made }),
  });
}

/** Revokes a token by id or by its secret as the local operator (`carte token revoke`), audited. */
export function revokeTokenAudited(site: TokenSite, idOrToken: string, now: number): Promise<RevokedToken> {
  // The row's project is the revoked token's (`recorded`): the local user acts in every project.
  return tokenAct(site, localCaller('default'), {
    verb: 'revoke',
    asked: askedRevoke(idOrToken),
    run: () => revokeToken(site.store, idOrToken, now),
    done: revokedDetail,
  });
}

/** Revokes a token of the caller's project by id (admin; REST and the web menu), audited. */
export function revokeProjectTokenAudited(
  site: TokenSite,
  caller: CallerContext,
  id: string,
  now: number,
): Promise<RevokedToken> {
  return tokenAct(site, caller, {
    verb: 'revoke',
    asked: askedRevoke(id),
    run: () => revokeProjectToken(site.store, caller, id, now),
    done: revokedDetail,
  });
}

/** `tok_1a2b3c4d "ci" in project "web": scopes call, search; expires 2026-12-27T10:50:00Z`. */
function describeToken(t: TokenInfo): string {
  const name = t.name === null ? '' : ` ${quote(t.name)}`;
  const rate = t.ratePerMinute === null ? '' : `; rate ${t.ratePerMinute}/m`;
  return `${t.id}${name} in project ${quote(t.project)}: scopes ${t.scopes.join(', ')}; expires ${isoOrNever(t.expiresAt)}${rate}`;
}

/** One token act, audited: its row names the token, and a local operator's row goes to the token's project. */
function tokenAct<T>(
  site: TokenSite,
  caller: CallerContext,
  act: {
    verb: 'create' | 'revoke';
    asked: string;
    run: () => Promise<T>;
    done: (result: T) => { token: TokenInfo; note?: string };
  },
): Promise<T> {
  return auditedAdminAct(site, caller, {
    asked: `token ${act.verb} ${act.asked}`,
    run: act.run,
    done: (result) => {
      const { token, note } = act.done(result);
      const detail = `token ${act.verb} ${describeToken(token)}${note === undefined ? '' : ` (${note})`}`;
      return { detail, project: token.project };
    },
  });
}

function revokedDetail(r: RevokedToken): { token: TokenInfo; note?: string } {
  if (r.revoked) return { token: r.token };
  return { token: r.token, note: `already revoked at ${isoOrNever(r.token.revokedAt)}` };
}

/** What a create asked for (it may be refused for any part of it). */
function askedCreate(input: CreateTokenInput, now: number): string {
  const name = input.name === undefined ? '' : `named ${quote(input.name, 66)} `;
  const scopes = input.scopes.map((s) => quote(s, 20)).join(', ') || 'none';
  const ms = input.expiresInMs;
  const expiry =
    ms === undefined
      ? 'never'
      : Number.isSafeInteger(ms) && ms > 0 && now + ms <= MAX_DATE_MS
        ? isoOrNever(now + ms)
        : `in ${quote(ms)} ms`;
  const rate = input.ratePerMinute === undefined ? '' : `; rate ${quote(input.ratePerMinute)}/m`;
  return `${name}in project ${quote(input.project)}: scopes ${scopes}; expires ${expiry}${rate}`;
}

/** A revocation's target as asked: the id, or "by its secret" (the secret itself is never written). */
function askedRevoke(idOrToken: string): string {
  return idOrToken.startsWith(TOKEN_PREFIX) ? 'by its secret' : quote(idOrToken, 40);
}

/** The last time a Date can hold (ECMA-262, 21.4.1.1): an expiry past it is shown as asked. */
const MAX_DATE_MS = 8.64e15;

function isoOrNever(ms: number | null): string {
  return ms === null ? 'never' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
